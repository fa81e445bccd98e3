import TesseraCore
import Testing

@testable import TesseraFetcher

@Suite("System resolver")
struct ResolverTests {
    /// Loose IPv4 spellings mean what `inet_aton` makes of them: all of these are 127.0.0.1.
    @Test(arguments: ["127.0.0.1", "2130706433", "0177.0.0.1", "127.1", "0x7f.0.0.1", "0x7f000001", "017700000001"])
    func oddSpellingsOfLoopbackResolveToIt(host: String) async throws {
        let addresses = try await SystemResolver().addresses(of: host)
        #expect(addresses == [.v4(0x7F00_0001)])
    }

    @Test func localhostIsLoopback() async throws {
        let addresses = try await SystemResolver().addresses(of: "localhost")
        #expect(!addresses.isEmpty)
        #expect(addresses.allSatisfy { AddressPolicy.refusal(for: $0) == "loopback" })
    }

    @Test func ipv6LiteralsResolveToThemselves() async throws {
        #expect(try await SystemResolver().addresses(of: "::ffff:127.0.0.1") == [IPAddress("::ffff:127.0.0.1")!])
        #expect(try await SystemResolver().addresses(of: "::1") == [.v6(1)])
    }

    @Test func unknownNamesAreUnresolvable() async {
        await #expect(throws: FetchError.unresolvable(host: "no-such-host.invalid")) {
            try await SystemResolver().addresses(of: "no-such-host.invalid")
        }
    }
}
