import TesseraCore
import Testing

@testable import TesseraFetcher

@Suite("URLs, origins and errors")
struct URLAndPolicyTests {
    @Test(arguments: [
        ("https://Example.COM/a.jpg?key=1", "example.com:443"),
        ("HTTP://Example.com:80/a#frag", "example.com:80"),
        ("http://127.0.0.1:9001/pixabay/api/", "127.0.0.1:9001"),
        ("http://[::1]/a.png", "[::1]:80"),
        ("https://[2001:DB8::1]:8443/", "[2001:db8::1]:8443"),
        ("http://user:secret@images.example/a.jpg", "images.example:80"),
        ("http://ex\u{E4}mple.com/", "xn--exmple-cua.com:80"),
    ])
    func originsAreLowerCasedWithTheirPort(url: String, origin: String) {
        #expect(FetchPolicy.origin(of: url) == origin)
    }

    @Test(arguments: [
        "ftp://example.com/a.jpg", "file:///etc/passwd", "data:image/png;base64,iVBORw0KGgo=", "example.com/a.jpg",
        "", "http://", "http://a b/", "http://[fe80::1%25eth0]/", "http://example.com:0/", "http://exa$mple.com/",
    ])
    func nothingUnfetchableHasAnOrigin(url: String) {
        #expect(FetchPolicy.origin(of: url) == nil)
    }

    @Test func trustedOriginsAcceptURLsAndBareHosts() {
        #expect(FetchPolicy.normalizedOrigins("http://127.0.0.1:9001/pixabay/api/") == ["127.0.0.1:9001"])
        #expect(FetchPolicy.normalizedOrigins(" Mirror.LAN:8080 ") == ["mirror.lan:8080"])
        #expect(FetchPolicy.normalizedOrigins("mirror.lan") == ["mirror.lan:80", "mirror.lan:443"])
        #expect(FetchPolicy.normalizedOrigins("[::1]:9000") == ["[::1]:9000"])
        #expect(FetchPolicy.normalizedOrigins("") == [])
    }

    @Test func requestsAreRebuiltFromCheckedParts() throws {
        let target = try TargetURL(parsing: "  http://user:pw@Images.Example:8080/a%20b/c.jpg?size=l&key=k#top ")
        #expect(target.string == "http://images.example:8080/a%20b/c.jpg?size=l&key=k")
        #expect(try TargetURL(parsing: "https://example.com").string == "https://example.com/")
        #expect(try TargetURL(parsing: "http://[::FFFF:127.0.0.1]:80/").string == "http://[::ffff:127.0.0.1]/")
        // Percent-encoded host names are decoded before they are checked, never passed on encoded.
        #expect(try TargetURL(parsing: "http://%31%32%37.0.0.1/").host == "127.0.0.1")
    }

    @Test func redirectTargetsResolveAgainstTheCurrentURL() throws {
        let current = try TargetURL(parsing: "http://h:1/a/b/c.jpg?x=1")
        #expect(try current.resolving(location: "d.jpg").string == "http://h:1/a/b/d.jpg")
        #expect(try current.resolving(location: "/e.jpg").string == "http://h:1/e.jpg")
        #expect(try current.resolving(location: "../f.jpg").string == "http://h:1/a/f.jpg")
        #expect(try current.resolving(location: "//other.example/g.jpg").string == "http://other.example/g.jpg")
        #expect(try current.resolving(location: "?q=2").string == "http://h:1/a/b/c.jpg?q=2")
        #expect(throws: FetchError.unsupportedScheme("file")) { try current.resolving(location: "file:///etc/passwd") }
    }

    @Test func everyErrorHasACodeAndAMessageThatKeepsQueriesOut() {
        let errors: [(FetchError, String)] = [
            (.invalidURL(TargetURL.redacted("http://a b/x?key=SECRET")), "invalid_url"),
            (.unsupportedScheme("ftp"), "unsupported_scheme"),
            (.unsupportedScheme(""), "unsupported_scheme"),
            (.refusedAddress(host: "intranet.lan", address: "10.0.0.5", reason: "private network"), "refused_address"),
            (.unresolvable(host: "nowhere.invalid"), "unresolvable"),
            (.tooManyRedirects(limit: 5), "too_many_redirects"),
            (.tooLarge(limit: 25 * 1024 * 1024), "too_large"),
            (.timeout(host: "slow.example"), "timeout"),
            (.upstreamStatus(host: "images.example", status: 404), "upstream_status"),
            (.connectionFailed(host: "images.example", detail: "connection reset"), "connection_failed"),
            (.notAnImage(host: "images.example", contentType: "text/html"), "not_an_image"),
        ]
        for (error, code) in errors {
            #expect(error.code == code)
            #expect(!error.message.isEmpty)
            #expect(!error.description.contains("SECRET"))
        }
        #expect(FetchError.tooLarge(limit: 25 * 1024 * 1024).message.contains("25 MB"))
        #expect(
            FetchError.refusedAddress(host: "intranet.lan", address: "10.0.0.5", reason: "private network")
                .message.contains("intranet.lan"))
        #expect(FetchError.upstreamStatus(host: "images.example", status: 404).message.contains("404"))
    }

    @Test func queriesAreCutFromInvalidURLs() async {
        let fetcher = ImageFetcher()
        let error = await fetchError { try await fetcher.fetch("http://a b/x.jpg?key=SECRET") }
        #expect(error == .invalidURL("http://a b/x.jpg"))
        try? await fetcher.shutdown()
    }
}
