import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// Numbers no client should be able to size anything by (docs/api.md, "Bounds on what clients send"), sent over
/// real HTTP in each place a client may put one: each gets a 4xx (or, where the value is one the API takes, its
/// ordinary answer), and the server still answers `/api/health` afterwards. An overflow or an allocation sized by
/// one of them would end the test process, which runs the server.
@Suite("Hostile input over HTTP")
struct HostileInputTests {
    // MARK: - Headers

    @Test(.timeLimit(.minutes(2))) func hostileHeadersAreAnsweredAndTheServerStaysUp() async throws {
        let environment = ["TESSERA_TRUSTED_PROXIES": "127.0.0.1/32, ::1"]
        try await withTessera(StandInSet().list, extraEnvironment: environment) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            let renamed = try await client.execute(
                uri: "/api/galleries/\(gallery.id)", method: .patch, body: ByteBuffer(string: #"{"name":"Dunes"}"#))
            #expect(renamed.status == .ok, "the gallery is at revision 2")

            // If-Match: bare, quoted and weak. Only 1 to 18 digits are a revision; 0 and 1 are not this one's.
            for value in Hostile.numbers {
                for form in [value, "\"\(value)\"", "W/\"\(value)\""] {
                    let response = try await client.execute(
                        uri: "/api/galleries/\(gallery.id)", method: .patch, headers: [.ifMatch: form],
                        body: ByteBuffer(string: #"{"name":"Never"}"#))
                    let isRevision = ["0", " 1"].contains(value) && form == value || value == "0"
                    try Hostile.expect(
                        response, isRevision ? .preconditionFailed : .badRequest,
                        isRevision ? "revision_mismatch" : "invalid_body", "If-Match: \(form)")
                }
            }
            // Last-Event-ID: only a revision opens the stream (a valid one would wait for events here).
            for value in Hostile.numbers where !["0", "", " 1"].contains(value) {
                let response = try await client.execute(
                    uri: "/api/galleries/\(gallery.id)/events", method: .get,
                    headers: [HTTPField.Name("Last-Event-ID")!: value])
                try Hostile.expect(response, .badRequest, "invalid_body", "Last-Event-ID: \(value)")
            }
            #expect(try await GalleriesAPITests.gallery(client, gallery.id).name == "Dunes", "nothing changed")

            try await Self.ranges(client)
            try await Self.contentLengths(client)

            // X-Forwarded-For from a trusted proxy, cookies and Accept: read, never counted on.
            let addresses = [
                "999.1.1.1", "::ffff:999.0.0.1", "1.2.3.4/-1", "-1", Hostile.tenThousandDigits,
                Array(repeating: "1.2.3.4", count: 2_000).joined(separator: ","), ",,,,", "١.٢.٣.٤",
            ]
            for address in addresses {
                let response = try await client.execute(
                    uri: "/api/search?q=fox&scope=pixabay", method: .get,
                    headers: [HTTPField.Name("X-Forwarded-For")!: address])
                #expect([.ok, .tooManyRequests].contains(response.status), "X-Forwarded-For: \(address.prefix(40))")
            }
            let cookies = Hostile.numbers.map { "tessera_session=\($0); tessera_link_l_x=\($0).\($0)" }
            for cookie in cookies {
                let response = try await client.execute(
                    uri: "/api/galleries", method: .get,
                    headers: [.cookie: cookie, .accept: "image/webp;q=\(Hostile.tenThousandDigits)"])
                #expect(response.status == .ok, "Cookie: \(cookie.prefix(60))")
            }
            try await Hostile.expectHealthy(client)
        }
    }

    /// `Range` on a media preview: within the preview a range (206), past its end 416, anything else the whole
    /// preview (200), never a range sized by the number.
    private static func ranges(_ client: any TestClientProtocol) async throws {
        let search = try await client.execute(uri: "/api/search?q=fox&scope=music", method: .get)
            .json(SearchResponse.self)
        let preview = try #require(search.sections.first?.items.first?.mediaPreview?.url)
        let size = StandInMedia.wav.count
        var headers: [String] = []
        for value in Hostile.numbers {
            headers += ["bytes=\(value)-", "bytes=-\(value)", "bytes=0-\(value)", "bytes=\(value)-\(value)"]
        }
        headers += ["bytes=0-0,\(Hostile.tenThousandDigits)-", "bytes=" + String(repeating: "0-0,", count: 5_000)]
        for header in headers {
            let response = try await client.execute(uri: preview, method: .get, headers: [.range: header])
            let label = "Range: \(header.prefix(60))"
            #expect([.ok, .partialContent, .rangeNotSatisfiable].contains(response.status), "\(label)")
            if response.status == .partialContent {
                let range = try #require(response.headers[.contentRange], "\(label)")
                #expect(range.hasSuffix("/\(size)"), "\(label): \(range)")
                #expect(response.body.readableBytes <= size, "\(label)")
            }
        }
        // The extremes that are ranges: all of it, from either end; one starting past the end is 416.
        let expected: [(String, HTTPResponse.Status)] = [
            ("bytes=0-999999999999999999", .partialContent), ("bytes=-999999999999999999", .partialContent),
            ("bytes=999999999999999999-", .rangeNotSatisfiable), ("bytes=-0", .rangeNotSatisfiable),
            ("bytes=0-9223372036854775807", .ok), ("bytes=-9223372036854775808", .ok),
        ]
        for (header, status) in expected {
            let response = try await client.execute(uri: preview, method: .get, headers: [.range: header])
            #expect(response.status == status, "Range: \(header)")
            if status == .partialContent { #expect(response.body.readableBytes == size, "Range: \(header)") }
        }
    }

    /// `Content-Length` and chunk sizes, over a socket (an HTTP client would not send them): a length that is not
    /// one is refused by the HTTP parser (400, or the connection closed); one larger than the call takes is a 413
    /// at once, without waiting for a body that will never come.
    private static func contentLengths(_ client: any TestClientProtocol) async throws {
        let port = try #require(client.port)
        let body = #"{"name":"x"}"#
        for value in Hostile.numbers where !["0", " 1"].contains(value) {
            let request =
                "POST /api/galleries HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(value)\r\nConnection: close\r\n\r\n\(body)"
            let status = try await offPool { Hostile.status(port: port, send: request) }
            let label = "Content-Length: \(value.prefix(40))"
            if value == "9223372036854775807" {
                #expect(status == 413, "\(label)")
            } else if value.allSatisfy(\.isWholeNumber) && value.allSatisfy(\.isASCII) {
                // Past Int64 (or UInt64, for the HTTP parser): refused by the parser or as too large.
                #expect(status == nil || status == 400 || status == 413, "\(label)")
            } else {
                #expect(status == nil || status == 400, "\(label): \(status.map(String.init) ?? "closed")")
            }
        }
        for length in [1 << 20 + 1, 1 << 40] {
            let request =
                "PATCH /api/galleries/g_x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(length)\r\n\r\n{"
            let status = try await offPool { Hostile.status(port: port, send: request) }
            #expect(status == 413, "Content-Length: \(length)")
        }
        for size in ["ffffffffffffffffffff", "-1", "0x10", Hostile.tenThousandDigits] {
            let request =
                "POST /api/galleries HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n\(size)\r\n{\r\n"
            let status = try await offPool { Hostile.status(port: port, send: request) }
            #expect(
                status == nil || status == 400 || status == 413,
                "chunk size \(size.prefix(40)): \(status.map(String.init) ?? "closed")")
        }
        try await Hostile.expectHealthy(client)
    }

    // MARK: - Query values

    @Test(.timeLimit(.minutes(2))) func hostileQueryValuesAreAnsweredAndTheServerStaysUp() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            for value in Hostile.numbers {
                let query = Hostile.encodedPathSegment(value)
                let page = try await client.execute(uri: "/api/search?q=fox&scope=pixabay&page=\(query)", method: .get)
                // Only 1 to 200 in ASCII digits is a page: none of these.
                try Hostile.expect(page, .badRequest, "invalid_page", "page=\(value.prefix(40))")
                for (path, name) in [
                    ("/api/galleries", "deleted"), ("/api/galleries/\(gallery.id)/credits", "format"),
                ] {
                    let response = try await client.execute(uri: "\(path)?\(name)=\(query)", method: .get)
                    try Hostile.expect(response, .badRequest, "invalid_parameter", "\(name)=\(value.prefix(40))")
                }
                let permanent = try await client.execute(
                    uri: "/api/galleries/\(gallery.id)?permanent=\(query)", method: .delete)
                try Hostile.expect(permanent, .badRequest, "invalid_parameter", "permanent=\(value.prefix(40))")
                let filter = try await client.execute(uri: "/api/search?q=fox&color=\(query)", method: .get)
                try Hostile.expect(filter, .badRequest, "invalid_filter", "color=\(value.prefix(40))")
            }
            // Item ids: 1 to 100 of them, each 1 to 300 code points.
            let many = (0..<5_000).map { "id=\($0)" }.joined(separator: "&")
            let tooMany = try await client.execute(uri: "/api/items/galleries?\(many)", method: .get)
            try Hostile.expect(tooMany, .badRequest, "invalid_item_id", "5,000 ids")
            let long = try await client.execute(
                uri: "/api/items/galleries?id=pixabay:\(Hostile.tenThousandDigits)", method: .get)
            try Hostile.expect(long, .badRequest, "invalid_item_id", "an id of 10,000 digits")
            let query = try await client.execute(
                uri: "/api/search?q=\(Hostile.tenThousandDigits)&page=\(Hostile.tenThousandDigits)", method: .get)
            try Hostile.expect(query, .badRequest, "invalid_query", "q of 10,000 digits")
            #expect(try await GalleriesAPITests.gallery(client, gallery.id).deletedAt == nil, "nothing deleted")
            try await Hostile.expectHealthy(client)
        }
    }
}

/// The values, and the checks every test here makes.
enum Hostile {
    static let tenThousandDigits = String(repeating: "9", count: 10_000)

    /// -1, 0, Int64's extremes and one past, 2^64, out of Double's range, signs, spaces, hex, empty, 10,000
    /// digits, not-a-number, infinities, fractions and digits of other scripts.
    static let numbers = [
        "-1", "0", "-9223372036854775808", "9223372036854775807", "9223372036854775808", "18446744073709551616",
        "1e400", "+1", " 1", "0x10", "", tenThousandDigits, "NaN", "Infinity", "-Infinity", "-0", "1.5", "１", "١٢",
    ]

    /// The answer is `status` with the error `code` (never a 5xx).
    static func expect(
        _ response: TestResponse, _ status: HTTPResponse.Status, _ code: String, _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(response.status == status, "\(label): \(response.text.prefix(300))", sourceLocation: sourceLocation)
        if response.status == status && status.code >= 400 {
            #expect(try response.apiError().code == code, "\(label)", sourceLocation: sourceLocation)
        }
    }

    static func expectHealthy(_ client: any TestClientProtocol, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let health = try await client.execute(uri: "/api/health", method: .get)
        #expect(health.status == .ok, "the server still answers", sourceLocation: sourceLocation)
    }

    /// The status of the answer to `text` sent on a new connection, or `nil` when it closes without one.
    static func status(port: Int, send text: String) -> Int? {
        (try? RawHTTP.exchange(port: port, send: text, responses: 1))?.first?.status
    }
}
