import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// Path values, JSON bodies and multipart bodies with the numbers of `Hostile.numbers` and the shapes a parser
/// can be made to work on (nesting, thousands of parts, a boundary that never ends).
extension HostileInputTests {
    // MARK: - Path values

    @Test(.timeLimit(.minutes(2))) func hostilePathValuesAreAnsweredAndTheServerStaysUp() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            let values =
                Hostile.numbers.filter { !$0.isEmpty }
                + ["g_" + Hostile.tenThousandDigits, String(repeating: "A", count: 10_000), "%00", "%ff%fe"]
            for value in values {
                let segment = Hostile.encodedPathSegment(value)
                let label = value.prefix(40)
                let one = try await client.execute(uri: "/api/galleries/\(segment)", method: .get)
                try Hostile.expect(one, .notFound, "gallery_not_found", "gallery \(label)")
                let removed = try await client.execute(
                    uri: "/api/galleries/\(gallery.id)/items/\(segment)", method: .delete)
                try Hostile.expect(removed, .notFound, "item_not_found", "item \(label)")
                let moved = try await client.execute(
                    uri: "/api/galleries/\(gallery.id)/items/\(segment)/move", method: .post,
                    body: ByteBuffer(string: #"{"index":0}"#))
                try Hostile.expect(moved, .notFound, "item_not_found", "moved item \(label)")
                // Everything else: an answer below 500 (which one depends on the route), and never a success for
                // a value that names nothing.
                let others: [(HTTPRequest.Method, String)] = [
                    (.get, "/api/items/pixabay/\(segment)"), (.get, "/api/items/\(segment)/1"),
                    (.get, "/img/thumb/\(segment)/\(segment)"), (.get, "/img/\(segment)/\(segment)/\(segment)"),
                    (.get, "/media/\(segment)/\(segment)"), (.get, "/s/\(segment)"), (.get, "/api/shared/\(segment)"),
                    (.delete, "/api/links/\(segment)"), (.delete, "/api/tokens/\(segment)"),
                    (.delete, "/api/galleries/\(gallery.id)/members/\(segment)"), (.get, "/app/\(segment)"),
                    (.get, "/s/\(segment)/img/thumb/\(segment)/\(segment)"),
                ]
                for (method, uri) in others {
                    let response = try await client.execute(uri: uri, method: method)
                    #expect(
                        (400..<500).contains(response.status.code),
                        "\(method) \(uri.prefix(80)): \(response.status) \(response.text.prefix(200))")
                }
            }
            #expect(try await GalleriesAPITests.gallery(client, gallery.id).revision == 1, "nothing changed")
            try await Hostile.expectHealthy(client)
        }
    }

    // MARK: - JSON bodies

    @Test(.timeLimit(.minutes(2))) func hostileJSONBodiesAreAnsweredAndTheServerStaysUp() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            let (headers, upload) = GalleriesAPITests.multipart(StandInImage.jpeg)
            let added = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items", method: .post, headers: headers, body: upload)
            try #require(added.status == .created, "\(added.text)")
            let item = try added.json(GalleryItem.self)
            let move = "/api/galleries/\(gallery.id)/items/\(item.id)/move"

            // Indices as JSON writes them, and what JSON does not allow. 0, -0 and 1e-400 are 0 (as JSONDecoder reads
            // them), 1.0 is 1.
            let tokens: [(String, String?)] = [
                ("0", nil), ("-0", nil), ("1.0", nil), ("-1", "invalid_index"),
                ("-9223372036854775808", "invalid_index"), ("9223372036854775807", "invalid_index"),
                ("9007199254740992", "invalid_index"), ("9223372036854775808", "invalid_body"),
                ("18446744073709551616", "invalid_body"), ("1e400", "invalid_body"), ("-1e400", "invalid_body"),
                ("1e-400", nil), ("1.5", "invalid_body"), (Hostile.tenThousandDigits, "invalid_body"),
                ("NaN", "invalid_body"), ("Infinity", "invalid_body"), ("+1", "invalid_body"),
                ("0x10", "invalid_body"), ("\"1\"", "invalid_body"), ("null", "invalid_body"), ("１", "invalid_body"),
                ("[0]", "invalid_body"), ("", "invalid_body"),
            ]
            for (token, code) in tokens {
                let response = try await client.execute(
                    uri: move, method: .post, body: ByteBuffer(string: #"{"index": \#(token)}"#))
                let label = "index \(token.prefix(40))"
                if let code {
                    try Hostile.expect(response, .badRequest, code, label)
                } else {
                    #expect(response.status == .ok, "\(label): \(response.text)")
                }
            }

            // Names: too long, not a string, nested past any parser's depth; a body past the JSON cap.
            let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            let names: [(String, HTTPResponse.Status, String)] = [
                (GalleriesAPITests.quoted(String(repeating: "é", count: 10_000)), .badRequest, "invalid_name"),
                ("1e400", .badRequest, "invalid_body"), ("-9223372036854775808", .badRequest, "invalid_body"),
                (nested, .badRequest, "invalid_body"),
                (String(repeating: "[", count: 600_000), .badRequest, "invalid_body"),
                (String(repeating: "{\"a\":", count: 100_000), .badRequest, "invalid_body"),
                (GalleriesAPITests.quoted(String(repeating: "x", count: 1 << 20)), .contentTooLarge, "too_large"),
            ]
            for (value, status, code) in names {
                let body = ByteBuffer(string: #"{"name": \#(value)}"#)
                let label = "name \(value.prefix(40))"
                try Hostile.expect(
                    try await client.execute(uri: "/api/galleries", method: .post, body: body), status, code, label)
                try Hostile.expect(
                    try await client.execute(uri: "/api/galleries/\(gallery.id)", method: .patch, body: body), status,
                    code, label)
                // An add reads its body twice (fair use looks for "url"): the same answers.
                let add = try await client.execute(
                    uri: "/api/galleries/\(gallery.id)/items", method: .post,
                    body: ByteBuffer(string: #"{"url": \#(value)}"#))
                if status == .contentTooLarge || code == "invalid_body" {
                    try Hostile.expect(add, status, code, "url \(value.prefix(40))")
                } else {
                    #expect((400..<500).contains(add.status.code), "url \(value.prefix(40)): \(add.status)")
                }
            }

            // Numbers inside an item: a rating and its count at and past their bounds.
            let result = try await GalleriesAPITests.firstResult(client)
            let itemJSON = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
            let listings: [(String, String)] = [
                (#"{"rating": 1e400}"#, "invalid_body"), (#"{"rating": -1e400}"#, "invalid_body"),
                (#"{"rating": 5.000001}"#, "invalid_item"), (#"{"rating": -0.5}"#, "invalid_item"),
                (#"{"ratingCount": -9223372036854775808}"#, "invalid_item"),
                (#"{"ratingCount": 9223372036854775808}"#, "invalid_body"),
            ]
            for (listing, code) in listings {
                let body = #"{"item": \#(itemJSON.dropLast()), "listing": \#(listing)}, "index": 0}"#
                let response = try await client.execute(
                    uri: "/api/galleries/\(gallery.id)/items", method: .post, body: ByteBuffer(string: body))
                try Hostile.expect(response, .badRequest, code, "listing \(listing)")
            }
            #expect(try await GalleriesAPITests.gallery(client, gallery.id).items?.count == 1)
            try await Hostile.expectHealthy(client)
        }
    }

    // MARK: - Multipart bodies

    @Test(.timeLimit(.minutes(2))) func hostileMultipartBodiesAreAnsweredAndTheServerStaysUp() async throws {
        let environment = ["TESSERA_IMPORT_RATE": "10000/min", "TESSERA_IMAGE_MAX_MB": "2"]
        try await withTessera(StandInSet().list, extraEnvironment: environment) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            let items = "/api/galleries/\(gallery.id)/items"
            // The index field: a whole number (spaces around are the form's), from 0 up; past the end is the end.
            for value in Hostile.numbers {
                let form = Hostile.form([("index", value)], file: StandInImage.jpeg)
                let response = try await client.execute(uri: items, method: .post, headers: form.0, body: form.1)
                let label = "index \(value.prefix(40))"
                switch value {
                case "0", " 1", "-0": #expect(response.status == .created, "\(label): \(response.text)")
                case "-1", "-9223372036854775808", "9223372036854775807":
                    try Hostile.expect(response, .badRequest, "invalid_index", label)
                default: try Hostile.expect(response, .badRequest, "invalid_body", label)
                }
            }

            // Shapes: thousands of parts, parts with no end, boundaries empty, huge or never closed.
            let boundary = "b0undary"
            let manyParts =
                String(
                    repeating: "--\(boundary)\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n", count: 20_000
                )
                + "--\(boundary)--\r\n"
            let longBoundary = String(repeating: "b", count: 10_000)
            let shapes: [(String, String, HTTPResponse.Status, String)] = [
                ("multipart/form-data; boundary=\(boundary)", manyParts, .badRequest, "invalid_body"),
                ("multipart/form-data; boundary=", "--\r\n\r\n--", .badRequest, "invalid_body"),
                ("multipart/form-data", "--x\r\n\r\n--x--", .badRequest, "invalid_body"),
                ("multipart/form-data; boundary=\"", "--\"\r\n\r\n--\"--", .badRequest, "invalid_body"),
                (
                    "multipart/form-data; boundary=\(boundary)",
                    "--\(boundary)\r\n" + String(repeating: "X-Header: 1\r\n", count: 50_000), .badRequest,
                    "invalid_body"
                ),
                (
                    "multipart/form-data; boundary=\(longBoundary)",
                    "--\(longBoundary)\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n"
                        + String(repeating: "--\(boundary)\r\n", count: 10_000), .badRequest, "invalid_body"
                ),
                (
                    "multipart/form-data; boundary=\(boundary)",
                    String(repeating: "-", count: 100_000) + "\r\n--\(boundary)--", .badRequest, "invalid_body"
                ),
                // A boundary that almost matches at every byte: each scan for it would cost its length there.
                (
                    "multipart/form-data; boundary=\(String(repeating: "-", count: 20_000))",
                    String(repeating: String(repeating: "-", count: 20_001) + "x", count: 90), .badRequest,
                    "invalid_body"
                ),
            ]
            for (contentType, body, status, code) in shapes {
                let response = try await client.execute(
                    uri: items, method: .post, headers: [.contentType: contentType], body: ByteBuffer(string: body))
                try Hostile.expect(response, status, code, "\(contentType.prefix(60)), \(body.utf8.count) bytes")
            }
            // Past the upload cap (2 MB here, and the form's own allowance): 413 before the parts are read.
            let huge = Hostile.form([], file: [UInt8](repeating: 0x41, count: 3 << 20))
            let tooLarge = try await client.execute(uri: items, method: .post, headers: huge.0, body: huge.1)
            try Hostile.expect(tooLarge, .contentTooLarge, "too_large", "a 3 MB upload")
            #expect(
                try await GalleriesAPITests.gallery(client, gallery.id).items?.count == 3,
                "the three uploads with an index")
            try await Hostile.expectHealthy(client)
        }
    }
}

extension Hostile {
    /// Every byte but ASCII letters and digits percent-encoded, for a path segment or a query value.
    static func encodedPathSegment(_ value: String) -> String {
        if value.hasPrefix("%") { return value }
        var allowed = CharacterSet()
        allowed.insert(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    /// A `multipart/form-data` upload of `file` with the text fields given.
    static func form(_ fields: [(String, String)], file: [UInt8]) -> (HTTPFields, ByteBuffer) {
        let boundary = "----hostile\(UUID().uuidString)"
        var body = ByteBuffer()
        for (name, value) in fields + [("allowNearDuplicate", "true")] {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        body.writeString(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\n"
                + "Content-Type: image/jpeg\r\n\r\n")
        body.writeBytes(file)
        body.writeString("\r\n--\(boundary)--\r\n")
        return ([.contentType: "multipart/form-data; boundary=\(boundary)"], body)
    }
}
