import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

@testable import TesseraFetcher

@Suite("Redirects, followed hop by hop")
struct RedirectTests {
    @Test(arguments: [301, 302, 303, 307, 308])
    func everyRedirectStatusIsFollowed(status: Int) async throws {
        try await withFetcher { _, origin in
            origin.redirect("/r", to: origin.url("/a.jpg"), status: status)
            origin.serve("/a.jpg", Sample.jpeg, contentType: "image/jpeg")
            let fetcher = ImageFetcher(policy: policy(trusting: origin.hostAndPort))

            let body = try await fetcher.fetch(origin.url("/r"))
            try await fetcher.shutdown()

            #expect(body.finalURL == origin.url("/a.jpg"))
            #expect(body.data == Data(Sample.jpeg))
            #expect(origin.hits("/r") == 1)
            #expect(origin.hits("/a.jpg") == 1)
        }
    }

    @Test(arguments: [
        ("/images/r", "a.jpg", "/images/a.jpg"),
        ("/images/deep/r", "../a.jpg", "/images/a.jpg"),
        ("/r", "/images/a.jpg?v=2", "/images/a.jpg?v=2"),
    ])
    func relativeLocationsResolveAgainstTheCurrentURL(from: String, location: String, to: String) async throws {
        try await withFetcher { _, origin in
            origin.redirect(from, to: location)
            origin.serve(String(to.prefix { $0 != "?" }), Sample.png, contentType: "image/png")
            let fetcher = ImageFetcher(policy: policy(trusting: origin.hostAndPort))

            let body = try await fetcher.fetch(origin.url(from))
            try await fetcher.shutdown()

            #expect(body.finalURL == origin.url(to))
            #expect(body.data == Data(Sample.png))
        }
    }

    /// A chain `/hop/n` → `/hop/n-1` → … → `/hop/0`, which serves the image.
    private func chain(_ origin: ImageOrigin, length: Int) {
        for hop in 1...length { origin.redirect("/hop/\(hop)", to: "/hop/\(hop - 1)") }
        origin.serve("/hop/0", Sample.jpeg, contentType: "image/jpeg")
    }

    @Test func fiveRedirectsAreFollowedAndTheSixthIsNot() async throws {
        try await withFetcher { _, origin in
            chain(origin, length: 6)
            let fetcher = ImageFetcher(policy: policy(trusting: origin.hostAndPort))

            let five = try await fetcher.fetch(origin.url("/hop/5"))
            let six = await fetchError { try await fetcher.fetch(origin.url("/hop/6")) }
            try await fetcher.shutdown()

            #expect(five.finalURL == origin.url("/hop/0"))
            #expect(six == .tooManyRedirects(limit: 5))
            #expect(origin.hits("/hop/6") == 1)
            #expect(origin.hits("/hop/1") == 2)
            #expect(origin.hits("/hop/0") == 1)
        }
    }

    @Test func theLimitIsConfigurable() async throws {
        try await withFetcher { _, origin in
            chain(origin, length: 1)
            let fetcher = ImageFetcher(policy: policy(trusting: origin.hostAndPort) { $0.maxRedirects = 0 })

            let error = await fetchError { try await fetcher.fetch(origin.url("/hop/1")) }
            try await fetcher.shutdown()

            #expect(error == .tooManyRedirects(limit: 0))
            #expect(origin.hits("/hop/0") == 0)
        }
    }

    @Test func aRedirectLoopEnds() async throws {
        try await withFetcher { _, origin in
            origin.redirect("/loop", to: "/loop", status: 301)
            let fetcher = ImageFetcher(policy: policy(trusting: origin.hostAndPort))

            let error = await fetchError { try await fetcher.fetch(origin.url("/loop")) }
            try await fetcher.shutdown()

            #expect(error == .tooManyRedirects(limit: 5))
            #expect(origin.hits("/loop") == 6)
        }
    }

    @Test(arguments: [
        ("file:///etc/passwd", FetchError.unsupportedScheme("file")),
        ("ftp://example.com/a.jpg", .unsupportedScheme("ftp")),
        ("data:image/png;base64,iVBORw0KGgo=", .unsupportedScheme("data")),
    ])
    func aRedirectToAnotherSchemeIsRefused(location: String, expected: FetchError) async throws {
        try await withFetcher { _, origin in
            origin.redirect("/r", to: location)
            let fetcher = ImageFetcher(policy: policy(trusting: origin.hostAndPort))

            let error = await fetchError { try await fetcher.fetch(origin.url("/r")) }
            try await fetcher.shutdown()

            #expect(error == expected)
        }
    }

    @Test func aRedirectWithoutLocationIsAnUpstreamError() async throws {
        try await withFetcher { _, origin in
            origin.answer("/r", with: .init(status: 302))
            let fetcher = ImageFetcher(policy: policy(trusting: origin.hostAndPort))

            let error = await fetchError { try await fetcher.fetch(origin.url("/r")) }
            try await fetcher.shutdown()

            #expect(error == .upstreamStatus(host: "127.0.0.1", status: 302))
        }
    }

    @Test func aRedirectToAPrivateNameIsCheckedAfresh() async throws {
        // The first hop's host is trusted; the second hop names another host that resolves to loopback.
        let resolver = TableResolver(table: ["cdn.example": ["127.0.0.1"], "127.0.0.1": ["127.0.0.1"]])
        try await withFetcher(resolver: resolver) { _, origin in
            origin.redirect("/r", to: "http://cdn.example:\(origin.port)/a.jpg")
            origin.serve("/a.jpg", Sample.jpeg, contentType: "image/jpeg")
            let fetcher = ImageFetcher(
                policy: policy(trusting: origin.hostAndPort), logger: .init(label: "test"), resolver: resolver)

            let error = await fetchError { try await fetcher.fetch(origin.url("/r")) }
            try await fetcher.shutdown()

            #expect(error == .refusedAddress(host: "cdn.example", address: "127.0.0.1", reason: "loopback"))
            #expect(origin.hits("/a.jpg") == 0)
        }
    }
}
