import NIOCore
import Testing

@testable import TesseraFetcher

@Suite("Refused address ranges")
struct AddressPolicyTests {
    /// Addresses just inside and just outside each refused IPv4 range, with the reason expected (nil: allowed).
    static let ipv4: [(String, String?)] = [
        ("0.0.0.0", "\"this network\""), ("0.255.255.255", "\"this network\""), ("1.0.0.0", nil),
        ("9.255.255.255", nil), ("10.0.0.0", "private network"), ("10.255.255.255", "private network"),
        ("11.0.0.0", nil),
        ("100.63.255.255", nil), ("100.64.0.0", "carrier-grade NAT"), ("100.127.255.255", "carrier-grade NAT"),
        ("100.128.0.0", nil),
        ("126.255.255.255", nil), ("127.0.0.0", "loopback"), ("127.0.0.1", "loopback"),
        ("127.255.255.255", "loopback"), ("128.0.0.0", nil),
        ("169.253.255.255", nil), ("169.254.0.0", "link-local"), ("169.254.169.254", "link-local"),
        ("169.254.255.255", "link-local"), ("169.255.0.0", nil),
        ("172.15.255.255", nil), ("172.16.0.0", "private network"), ("172.31.255.255", "private network"),
        ("172.32.0.0", nil),
        ("191.255.255.255", nil), ("192.0.0.0", "IETF protocol assignments"),
        ("192.0.0.255", "IETF protocol assignments"), ("192.0.1.0", nil), ("192.0.1.255", nil),
        ("192.0.2.0", "documentation"), ("192.0.2.255", "documentation"), ("192.0.3.0", nil),
        ("192.167.255.255", nil), ("192.168.0.0", "private network"), ("192.168.255.255", "private network"),
        ("192.169.0.0", nil),
        ("198.17.255.255", nil), ("198.18.0.0", "benchmarking"), ("198.19.255.255", "benchmarking"),
        ("198.20.0.0", nil),
        ("198.51.99.255", nil), ("198.51.100.0", "documentation"), ("198.51.100.255", "documentation"),
        ("198.51.101.0", nil),
        ("203.0.112.255", nil), ("203.0.113.0", "documentation"), ("203.0.113.255", "documentation"),
        ("203.0.114.0", nil),
        ("223.255.255.255", nil), ("224.0.0.0", "multicast"), ("239.255.255.255", "multicast"),
        ("240.0.0.0", "reserved"), ("255.255.255.254", "reserved"), ("255.255.255.255", "broadcast"),
        ("8.8.8.8", nil), ("1.1.1.1", nil), ("93.184.216.34", nil),
    ]

    /// The same for IPv6, including the forms that carry an IPv4 address.
    static let ipv6: [(String, String?)] = [
        ("::", "unspecified"), ("::1", "loopback"),
        ("::2", "\"this network\", in IPv4-compatible form"),
        ("::127.0.0.1", "loopback, in IPv4-compatible form"), ("::8.8.8.8", nil),
        ("::ffff:127.0.0.1", "loopback, in IPv4-mapped form"),
        ("::ffff:10.1.2.3", "private network, in IPv4-mapped form"),
        ("::ffff:169.254.169.254", "link-local, in IPv4-mapped form"), ("::ffff:8.8.8.8", nil),
        ("::fffe:7f00:1", nil),
        ("64:ff9b::127.0.0.1", "loopback, in NAT64 form"),
        ("64:ff9b::192.168.1.1", "private network, in NAT64 form"), ("64:ff9b::8.8.8.8", nil),
        ("64:ff9b:1::", "local-use NAT64"), ("64:ff9b:1:ffff::1", "local-use NAT64"),
        ("2002:7f00:1::", "loopback, in 6to4 form"), ("2002:c0a8:101::1", "private network, in 6to4 form"),
        ("2002:808:808::1", nil),
        ("100::", "discard-only"), ("100::ffff:ffff:ffff:ffff", "discard-only"), ("100:0:0:1::", nil),
        ("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", nil), ("2001:db8::", "documentation"),
        ("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "documentation"), ("2001:db9::", nil),
        ("3fff::", "documentation"), ("3fff:fff:ffff::1", "documentation"), ("3fff:1000::", nil),
        ("fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", nil), ("fc00::", "unique local"),
        ("fd12:3456::1", "unique local"), ("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "unique local"),
        ("fe00::", nil), ("fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", nil),
        ("fe80::", "link-local"), ("fe80::1", "link-local"), ("febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "link-local"),
        ("fec0::", "site-local"), ("feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "site-local"),
        ("ff00::", "multicast"), ("ff02::1", "multicast"), ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "multicast"),
        ("2606:4700:4700::1111", nil), ("2a00:1450:4001:80b::200e", nil),
    ]

    @Test(arguments: ipv4)
    func ipv4Ranges(address: String, reason: String?) throws {
        let ip = try #require(IPAddress(address))
        #expect(AddressPolicy.refusal(for: ip) == reason)
    }

    @Test(arguments: ipv6)
    func ipv6Ranges(address: String, reason: String?) throws {
        let ip = try #require(IPAddress(address))
        #expect(AddressPolicy.refusal(for: ip) == reason)
    }

    @Test func socketAddressesAreJudgedByTheirIP() throws {
        #expect(AddressPolicy.refusal(for: try SocketAddress(ipAddress: "127.0.0.1", port: 80)) == "loopback")
        #expect(AddressPolicy.refusal(for: try SocketAddress(ipAddress: "fe80::1", port: 443)) == "link-local")
        #expect(AddressPolicy.refusal(for: try SocketAddress(ipAddress: "8.8.8.8", port: 443)) == nil)
        #expect(AddressPolicy.refusal(for: try SocketAddress(unixDomainSocketPath: "/tmp/x.sock")) != nil)
    }

    @Test func ipAddressesParseStrictlyAndPrintConventionally() {
        #expect(IPAddress("127.0.0.1") == .v4(0x7F00_0001))
        #expect(IPAddress("[::1]") == .v6(1))
        #expect(IPAddress("127.1") == nil)
        #expect(IPAddress("0x7f.0.0.1") == nil)
        #expect(IPAddress("localhost") == nil)
        #expect(IPAddress("10.20.30.40")?.description == "10.20.30.40")
        #expect(IPAddress("2001:DB8:0:0:0:0:0:1")?.description == "2001:db8::1")
        #expect(IPAddress("::ffff:127.0.0.1")?.description == "::ffff:127.0.0.1")
    }
}
