import AsyncHTTPClient
import Logging
import NIOCore
import TesseraCore
import TesseraTestSupport
import Testing

@testable import TesseraFetcher

@Suite("HTTP clients kept per host and checked address")
struct ClientPoolTests {
    @Test func oneClientServesEveryFetchOfTheSameHostAndAddress() async throws {
        try await withFetcher(policy { $0.allowPrivateNetworks = true }) { fetcher, origin in
            origin.serve("/a.jpg", Sample.jpeg, contentType: "image/jpeg")
            origin.redirect("/r", to: "/a.jpg")

            for _ in 0..<3 { _ = try await fetcher.fetch(origin.url("/r")) }

            #expect(fetcher.clients.count == 1)
            #expect(origin.hits("/a.jpg") == 3)
        }
    }

    @Test func theLeastRecentlyUsedClientIsEvictedAndShutDown() async throws {
        let pool = ClientPool(capacity: 2, connectTimeout: .seconds(5), logger: Logger(label: "test"))
        let hosts = ["a.example", "b.example", "c.example", "a.example"]
        var seen: [HTTPClient] = []
        for host in hosts {
            let key = ClientPool.Key(host: host, address: .v4(0x7F00_0001))
            seen.append(try await pool.withClient(key) { client in client })
        }
        // a, b, then c evicts a; a comes back as a new client.
        #expect(pool.count == 2)
        #expect(seen[0] !== seen[3])
        #expect(seen[0] !== seen[1])
        await pool.shutdown()
        #expect(pool.count == 0)
    }

    @Test func aClientEvictedWhileInUseFinishesItsFetch() async throws {
        try await withFetcher(policy { $0.allowPrivateNetworks = true }) { _, origin in
            origin.stallMidBody("/a.jpg", Sample.jpeg, contentType: "image/jpeg", after: 100, for: .seconds(1))
            let pool = ClientPool(capacity: 1, connectTimeout: .seconds(5), logger: Logger(label: "test"))
            let slow = ClientPool.Key(host: "127.0.0.1", address: .v4(0x7F00_0001))
            let fetcher = ImageFetcher(policy: policy { $0.allowPrivateNetworks = true })

            // While the slow fetch holds its client, another key evicts it from the pool of one.
            async let body = pool.withClient(slow) { client throws(FetchError) in
                try await fetcher.exchange(
                    try TargetURL(parsing: origin.url("/a.jpg")), client: client,
                    context: .init(
                        deadline: .now() + TimeAmount.seconds(10), accept: ImageFetcher.accept,
                        maxBytes: fetcher.policy.maxBytes, prefixLength: 1, validatePrefix: nil))
            }
            while origin.hits("/a.jpg") == 0 { try await Task.sleep(for: .milliseconds(10)) }
            _ = try await pool.withClient(.init(host: "other.example", address: .v4(0x7F00_0001))) { _ in 0 }
            let exchange = try await body

            guard case .done(.body(let fetched)) = exchange else {
                Issue.record("expected a body, got \(exchange)")
                return
            }
            #expect(fetched.data.count == Sample.jpeg.count)
            #expect(pool.count == 1)
            await pool.shutdown()
            try await fetcher.shutdown()
        }
    }
}
