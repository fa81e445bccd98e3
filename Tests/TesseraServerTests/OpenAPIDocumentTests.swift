import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OpenAPIKit
import TesseraServer
import TesseraTestSupport
import Testing
import Yams

/// `docs/openapi.yaml`, read with a real OpenAPI parser (OpenAPIKit), must describe exactly what the router
/// serves: every route and method, every status each handler can answer, the error shape and the headers.
/// (Its schemas against real answers and events: `OpenAPIEventSchemaTests`; fuzzed: `scripts/fuzz-api`.)
@Suite("The OpenAPI document against the router")
struct OpenAPIDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The document, parsed, validated by OpenAPIKit and with every local `$ref` resolved.
    static func document() throws -> DereferencedDocument {
        let text = try String(contentsOf: root.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        let document = try YAMLDecoder().decode(OpenAPI.Document.self, from: text)
        try document.validate()
        return try document.locallyDereferenced()
    }

    /// Every documented operation as `"GET /api/items/{}/{}"`.
    static func operations(_ document: DereferencedDocument) -> [String: DereferencedOperation] {
        var operations: [String: DereferencedOperation] = [:]
        for (path, item) in document.paths {
            for endpoint in item.endpoints {
                operations["\(endpoint.method.rawValue) \(normalize(path.rawValue))"] = endpoint.operation
            }
        }
        return operations
    }

    /// `/api/items/{source}/{id}` and `/api/items/:source/:id` both become `/api/items/{}/{}`.
    static func normalize(_ path: String) -> String {
        let trimmed = path.hasPrefix("/") ? path : "/" + path
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("{") || part.hasPrefix(":") ? "{}" : String(part)
        }.joined(separator: "/")
    }

    /// Every status each handler can answer, read from the controllers and `APIError+*.swift` (every gallery
    /// route may meet the shared database away: 503 `database_unavailable`); the document must list exactly these (a 405 for other methods is the router's, described once in the document).
    static let statuses: [String: Set<Int>] = [
        "GET /api/health": [200, 503],
        "GET /api/sources": [200],
        "GET /metrics": [200],
        "GET /api/search": [200, 400, 429],
        "GET /api/search/stream": [200, 400, 429],
        "GET /api/items/{}/{}": [200, 400, 404, 429, 502, 503, 504],
        "GET /api/items/galleries": [200, 400, 503],
        "GET /img/{}/{}/{}": [200, 304, 403, 404, 502, 504],
        "HEAD /img/{}/{}/{}": [200, 304, 403, 404, 502],
        "GET /media/{}/{}": [200, 206, 304, 403, 404, 416, 502, 504],
        "HEAD /media/{}/{}": [200, 206, 304, 403, 404, 416, 502, 504],
        "GET /": [200], "GET /search": [200], "GET /item/{}/{}": [200], "GET /galleries": [200],
        "GET /galleries/{}": [200],
        "GET /app/{}": [200, 304, 404], "GET /app/{}/{}": [200, 304, 404], "GET /app/{}/{}/{}": [200, 304, 404],
        "GET /api/galleries": [200, 400, 503],
        "POST /api/galleries": [201, 400, 413, 503],
        "GET /api/galleries/{}": [200, 404, 503],
        "PATCH /api/galleries/{}": [200, 400, 403, 404, 409, 412, 413, 503],
        "DELETE /api/galleries/{}": [200, 204, 400, 403, 404, 409, 412, 503],
        "POST /api/galleries/{}/restore": [200, 400, 403, 404, 409, 412, 503],
        "POST /api/galleries/{}/items": [201, 400, 403, 404, 409, 412, 413, 415, 429, 502, 504, 503],
        "DELETE /api/galleries/{}/items/{}": [200, 400, 403, 404, 409, 412, 503],
        "POST /api/galleries/{}/items/{}/move": [200, 400, 403, 404, 409, 412, 413, 503],
        "GET /api/galleries/{}/events": [200, 400, 404, 429, 503],
        "GET /api/galleries/{}/export": [200, 400, 403, 404, 429, 503],
        "GET /api/galleries/{}/credits": [200, 400, 404, 503],
        "GET /api/galleries/{}/members": [200, 404, 503],
        "POST /api/galleries/{}/members": [200, 400, 403, 404, 413, 503],
        "DELETE /api/galleries/{}/members/{}": [204, 403, 404, 503],
        "GET /login": [200, 303, 401],
        "POST /api/session": [200, 400, 401, 403, 404, 429, 503],
        "DELETE /api/session": [204, 404, 503],
        "DELETE /api/sessions": [204, 404, 503],
        "GET /api/me": [200],
        "GET /api/tokens": [200, 404, 503],
        "POST /api/tokens": [201, 400, 403, 404, 503],
        "DELETE /api/tokens/{}": [204, 403, 404, 503],
        "GET /api/galleries/{}/links": [200, 403, 404, 503],
        "POST /api/galleries/{}/links": [201, 400, 403, 404, 409, 413, 503],
        "DELETE /api/links/{}": [204, 404, 503],
        "GET /s/{}": [200, 304, 404, 410, 503],
        "GET /s/{}/img/{}/{}/{}": [200, 304, 401, 403, 404, 410, 429, 502, 503],
        "HEAD /s/{}/img/{}/{}/{}": [200, 304, 401, 403, 404, 410, 429, 502, 503],
        "GET /api/shared/{}": [200, 401, 404, 410, 429, 503],
        "POST /api/shared/{}/unlock": [204, 400, 401, 403, 404, 410, 413, 429, 503],
        "GET /api/shared/{}/credits": [200, 400, 401, 403, 404, 410, 429, 503],
        "POST /api/shared/{}/items": [201, 400, 401, 403, 404, 409, 410, 413, 415, 429, 502, 503, 504],
    ]

    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-openapi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let configuration = try AppConfiguration(environment: ["TESSERA_DATA": data.path])
        let environment = try await AppEnvironment.live(configuration, logger: Logger(label: "test"))
        let router = buildRouter(environment)
        try await environment.shutdown()

        let served = Set(router.routes.map { "\($0.method.rawValue) \(Self.normalize($0.path.description))" })
        let documented = Set(Self.operations(try Self.document()).keys)
        #expect(!served.isEmpty)
        #expect(served.subtracting(documented).isEmpty, "served but not documented: \(served.subtracting(documented))")
        #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served))")
        #expect(Set(Self.statuses.keys) == served, "the table of statuses below names every route")
    }

    @Test func everyStatusAHandlerCanAnswerIsDocumentedAndNoOther() throws {
        for (name, operation) in Self.operations(try Self.document()) {
            let documented = Set(operation.responseOutcomes.compactMap { Int($0.status.rawValue) })
            #expect(documented == Self.statuses[name], "\(name) documents \(documented.sorted())")
        }
    }

    @Test func everyErrorAnswerHasTheErrorShape() throws {
        let document = try Self.document()
        let envelope = try #require(document.components.schemas["ErrorEnvelope"]).dereferenced(in: document.components)
            .jsonSchema
        let info = try #require(envelope.objectContext?.properties["error"]?.objectContext)
        #expect(envelope.objectContext?.requiredProperties == ["error"])
        #expect(Set(info.requiredProperties) == ["code", "message"])
        #expect(info.properties["code"]?.jsonType == .string && info.properties["message"]?.jsonType == .string)
        for (name, operation) in Self.operations(document) {
            // A link's public page answers its 404 and 410 as the page itself, which says why (docs/accounts.md).
            for outcome in operation.responseOutcomes
            where Int(outcome.status.rawValue) ?? 0 >= 400 && !(name == "GET /s/{}" && outcome.status.rawValue != "503")
            {
                // Resolved, a `$ref` keeps the name of the component it came from.
                let schema = outcome.response.content[.json]?.schema?.jsonSchema
                let component = schema?.vendorExtensions["x-component-name"]?.value as? String
                #expect(component == "ErrorEnvelope", "\(name) \(outcome.status.rawValue) answers the error shape")
            }
        }
        let notAllowed = try #require(document.components.responses["MethodNotAllowed"]?.b)
        #expect(notAllowed.headers?["Allow"] != nil)
    }

    @Test func galleryAnswersCarryETagAndMutationsTakeIfMatch() throws {
        let operations = Self.operations(try Self.document())
        let mutations = operations.filter { name, _ in
            // Members and links are not part of the gallery's revision: who it is shared with takes no If-Match.
            name.contains("/api/galleries/{}") && !name.hasPrefix("GET") && !name.contains("/members")
                && !name.contains("/links")
        }
        #expect(mutations.count == 6)
        for (name, operation) in mutations {
            let ifMatch = try #require(operation.parameters.first { $0.name == "If-Match" }, "\(name) takes If-Match")
            #expect(ifMatch.location == .header && !ifMatch.required)
            #expect(ifMatch.schemaOrContent.schemaValue?.jsonSchema.stringContext?.pattern == Self.ifMatchPattern)
            for outcome in operation.responseOutcomes where ["200", "201", "412"].contains(outcome.status.rawValue) {
                #expect(outcome.response.headers?["ETag"] != nil, "\(name) \(outcome.status.rawValue) has ETag")
            }
        }
        let get = try #require(operations["GET /api/galleries/{}"])
        #expect(get.responseOutcomes.first { $0.status.rawValue == "200" }?.response.headers?["ETag"] != nil)
        let events = try #require(operations["GET /api/galleries/{}/events"])
        let lastEventID = try #require(events.parameters.first { $0.name == "Last-Event-ID" })
        #expect(lastEventID.location == .header)
        #expect(lastEventID.schemaOrContent.schemaValue?.jsonSchema.jsonType == .integer)
    }

    static let ifMatchPattern = #"^(\*|(W/)?"[0-9]{1,18}"|[0-9]{1,18})$"#

    /// The server accepts exactly the `If-Match` values the document's pattern allows: a value the pattern
    /// refuses is 400, one it allows is checked against the revision (200, or 412 when stale).
    @Test func ifMatchPatternIsWhatTheServerAccepts() async throws {
        let pattern = try NSRegularExpression(pattern: Self.ifMatchPattern)
        let values = [
            "*", "1", "\"1\"", "W/\"1\"", "7", "\"7\"", "", "-1", "+1", "1 2", "W/1", "\"1", "abc", "W/\"\"",
            "1234567890123456789",
        ]
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            for value in values {
                let range = NSRange(value.startIndex..., in: value)
                let allowed = pattern.firstMatch(in: value, range: range) != nil
                let response = try await client.execute(
                    uri: "/api/galleries/\(gallery.id)", method: .patch, headers: [.ifMatch: value],
                    body: ByteBuffer(string: #"{"name":"Moodboard"}"#))
                let expected: Set<HTTPResponse.Status> = allowed ? [.ok, .preconditionFailed] : [.badRequest]
                #expect(expected.contains(response.status), "If-Match \(value): \(response.status)")
            }
        }
    }

    /// Every documented path, asked with a method the document does not list for it, is 405 with `Allow`
    /// naming exactly the documented methods.
    @Test func otherMethodsOnADocumentedPathAre405WithAllow() async throws {
        let paths = try Self.document().paths.map { path, item in
            (
                "/" + path.components.map { $0.hasPrefix("{") ? "x1" : $0 }.joined(separator: "/"),
                Set(item.endpoints.map(\.method.rawValue))
            )
        }
        try await withTessera(StandInSet().list) { client, _ in
            for (uri, documented) in paths {
                for method in [HTTPRequest.Method.trace, .put, .options] where !documented.contains(method.rawValue) {
                    let response = try await client.execute(uri: uri, method: method)
                    #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                    let allow = Set(
                        (response.headers[.allow] ?? "").split(separator: ",").map {
                            $0.trimmingCharacters(in: .whitespaces)
                        })
                    #expect(allow == documented, "\(method) \(uri): Allow \(allow)")
                    #expect(try response.apiError().code == "method_not_allowed")
                }
            }
            let unknown = try await client.execute(uri: "/api/nothing-here", method: .trace)
            #expect(unknown.status == .notFound)
        }
    }
}
