import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

@testable import TesseraFetcher

@Suite("Guards against reaching the user's network")
struct GuardTests {
    /// Every spelling of the loopback origin's host: each must be refused before any request is sent.
    @Test(arguments: [
        "127.0.0.1", "2130706433", "0177.0.0.1", "127.1", "0x7f.0.0.1", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]",
        "localhost", "LOCALHOST", "%31%32%37.0.0.1", "[::1]", "0.0.0.0",
    ])
    func loopbackInAnySpellingIsRefused(host: String) async throws {
        try await withFetcher { fetcher, origin in
            origin.serve("/a.jpg", Sample.jpeg, contentType: "image/jpeg")

            let error = await fetchError { try await fetcher.fetch("http://\(host):\(origin.port)/a.jpg") }

            #expect(error?.code == "refused_address")
            #expect(origin.totalHits == 0)
        }
    }

    @Test(arguments: [
        ("file:///etc/passwd", FetchError.unsupportedScheme("file")),
        ("FTP://127.0.0.1/a.jpg", .unsupportedScheme("ftp")),
        ("data:image/png;base64,iVBORw0KGgo=", .unsupportedScheme("data")),
        ("gopher://127.0.0.1:70/_GET", .unsupportedScheme("gopher")),
        ("example.com/a.jpg", .unsupportedScheme("")),
        ("//example.com/a.jpg", .unsupportedScheme("")),
        ("not a url", .unsupportedScheme("")),
        ("", .invalidURL("")),
        ("http://", .invalidURL("http://")),
        ("http:///a.jpg", .invalidURL("http:///a.jpg")),
        ("http://a b/", .invalidURL("http://a b/")),
        ("http://[fe80::1%25eth0]/a.jpg", .invalidURL("http://[fe80::1%25eth0]/a.jpg")),
    ])
    func onlyHTTPAndHTTPSAreFetched(url: String, expected: FetchError) async throws {
        try await withFetcher { fetcher, origin in
            let error = await fetchError { try await fetcher.fetch(url) }
            #expect(error == expected)
            #expect(origin.totalHits == 0)
        }
    }

    @Test func aTrustedOriginIsFetchedWithOnlyOurHeaders() async throws {
        try await withFetcher { fetcher, origin in
            origin.serve("/a.jpg", Sample.jpeg, contentType: "image/jpeg")
            let trusted = ImageFetcher(policy: policy(trusting: origin.origin))

            let body = try await trusted.fetch(
                "http://user:secret@127.0.0.1:\(origin.port)/a.jpg?size=large", validatePrefix: Sample.isJPEGOrPNG)
            try await trusted.shutdown()

            #expect(body.data == Data(Sample.jpeg))
            #expect(body.contentType == "image/jpeg")
            #expect(body.finalURL == "http://127.0.0.1:\(origin.port)/a.jpg?size=large")
            let request = try #require(origin.requests("/a.jpg").first)
            #expect(origin.hits("/a.jpg") == 1)
            #expect(request.query == "size=large")
            #expect(request.headers["user-agent"] == "Tessera/0.1 (image proxy)")
            #expect(request.headers["accept"] == "image/avif,image/webp,image/*;q=0.8")
            #expect(request.headers["authorization"] == nil)
            #expect(request.headers["cookie"] == nil)
        }
    }

    @Test func trustIsByHostAndPort() async throws {
        try await withFetcher { fetcher, other in
            let trustedOrigin = try await ImageOrigin.start()
            trustedOrigin.serve("/a.jpg", Sample.jpeg, contentType: "image/jpeg")
            other.serve("/a.jpg", Sample.jpeg, contentType: "image/jpeg")
            let trusted = ImageFetcher(policy: policy(trusting: trustedOrigin.hostAndPort))

            let fetched = try await trusted.fetch(trustedOrigin.url("/a.jpg"))
            let error = await fetchError { try await trusted.fetch(other.url("/a.jpg")) }
            try await trusted.shutdown()
            await trustedOrigin.stop()

            #expect(fetched.data.count == Sample.jpeg.count)
            #expect(error == .refusedAddress(host: "127.0.0.1", address: "127.0.0.1", reason: "loopback"))
            #expect(other.totalHits == 0)
        }
    }

    @Test func aRedirectFromATrustedOriginToAnotherLoopbackPortIsRefused() async throws {
        let untrusted = try await ImageOrigin.start()
        untrusted.serve("/internal.jpg", Sample.jpeg, contentType: "image/jpeg")
        try await withFetcher { _, origin in
            origin.redirect("/r", to: untrusted.url("/internal.jpg"))
            let fetcher = ImageFetcher(policy: policy(trusting: origin.hostAndPort))

            let error = await fetchError { try await fetcher.fetch(origin.url("/r")) }
            try await fetcher.shutdown()

            #expect(error?.refusedAddress == "127.0.0.1")
            #expect(origin.hits("/r") == 1)
            #expect(untrusted.totalHits == 0)
        }
        await untrusted.stop()
    }

    @Test func allowingPrivateNetworksLetsLoopbackThrough() async throws {
        try await withFetcher(policy { $0.allowPrivateNetworks = true }) { fetcher, origin in
            origin.serve("/a.png", Sample.png, contentType: "image/png")

            let plain = try await fetcher.fetch(origin.url("/a.png"))
            // An odd spelling reaches the same server: the connection goes to the address it resolved to.
            let odd = try await fetcher.fetch("http://2130706433:\(origin.port)/a.png")

            #expect(plain.data == Data(Sample.png))
            #expect(odd.data == Data(Sample.png))
            #expect(origin.hits("/a.png") == 2)
        }
    }

    @Test func theConnectionGoesToTheAddressThatWasChecked() async throws {
        // `images.example` has no address in real DNS: only the checked answer can reach the origin.
        let resolver = TableResolver(table: ["images.example": ["127.0.0.1"]])
        try await withFetcher(resolver: resolver) { _, origin in
            origin.serve("/a.jpg", Sample.jpeg, contentType: "image/jpeg")
            let fetcher = ImageFetcher(
                policy: policy(trusting: "images.example:\(origin.port)"), logger: .init(label: "test"),
                resolver: resolver)

            let body = try await fetcher.fetch("http://images.example:\(origin.port)/a.jpg")
            try await fetcher.shutdown()

            #expect(body.data == Data(Sample.jpeg))
            #expect(origin.requests("/a.jpg").first?.headers["host"] == "images.example:\(origin.port)")
        }
    }

    @Test func oneRefusedAddressAmongPublicOnesRefusesTheHost() async throws {
        let resolver = TableResolver(table: ["rebind.example": ["93.184.216.34", "127.0.0.1"]])
        try await withFetcher(resolver: resolver) { fetcher, origin in
            origin.serve("/a.jpg", Sample.jpeg, contentType: "image/jpeg")

            let error = await fetchError { try await fetcher.fetch("http://rebind.example:\(origin.port)/a.jpg") }

            #expect(error == .refusedAddress(host: "rebind.example", address: "127.0.0.1", reason: "loopback"))
            #expect(origin.totalHits == 0)
        }
    }

    @Test func aFailedConnectionMovesOnToTheNextCheckedAddress() async throws {
        // The origin listens on 127.0.0.1 only, so ::1 refuses the connection.
        let resolver = TableResolver(table: ["dual.example": ["::1", "127.0.0.1"]])
        try await withFetcher(policy { $0.allowPrivateNetworks = true }, resolver: resolver) { fetcher, origin in
            origin.serve("/a.jpg", Sample.jpeg, contentType: "image/jpeg")

            let body = try await fetcher.fetch("http://dual.example:\(origin.port)/a.jpg")

            #expect(body.data == Data(Sample.jpeg))
            #expect(origin.hits("/a.jpg") == 1)
        }
    }

    @Test func aShutDownFetcherFetchesNothing() async throws {
        try await withFetcher(policy { $0.allowPrivateNetworks = true }) { fetcher, origin in
            origin.serve("/a.jpg", Sample.jpeg, contentType: "image/jpeg")
            try await fetcher.shutdown()

            let error = await fetchError { try await fetcher.fetch(origin.url("/a.jpg")) }

            #expect(error?.code == "connection_failed")
            #expect(origin.totalHits == 0)
        }
    }
}
