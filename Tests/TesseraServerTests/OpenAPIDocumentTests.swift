import Foundation
import Logging
import TesseraServer
import Testing

/// `docs/openapi.yaml` must describe exactly the routes the router serves.
@Suite struct OpenAPIDocumentTests {
    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-openapi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let configuration = try AppConfiguration(environment: ["TESSERA_DATA": data.path])
        let environment = try await AppEnvironment.live(configuration, logger: Logger(label: "test"))
        let router = buildRouter(environment)
        try await environment.shutdown()

        let served = Set(router.routes.map { "\($0.method.rawValue) \(Self.normalize($0.path.description))" })
        let documented = try Self.documentedRoutes()
        #expect(!served.isEmpty)
        #expect(served.subtracting(documented).isEmpty, "served but not documented: \(served.subtracting(documented))")
        #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served))")
    }

    /// `/api/items/{source}/{id}` and `/api/items/:source/:id` both become `/api/items/{}/{}`.
    static func normalize(_ path: String) -> String {
        let trimmed = path.hasPrefix("/") ? path : "/" + path
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("{") || part.hasPrefix(":") ? "{}" : String(part)
        }.joined(separator: "/")
    }

    /// Reads `paths:` from the YAML: two-space-indented path keys, four-space-indented method keys.
    static func documentedRoutes() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        var routes = Set<String>()
        var inPaths = false
        var currentPath: String?
        let methods = ["get", "put", "post", "delete", "patch", "head", "options"]
        for line in text.components(separatedBy: "\n") {
            if !line.hasPrefix(" ") && !line.isEmpty { inPaths = line.hasPrefix("paths:") }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), !line.hasPrefix("   ") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let currentPath {
                let key = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ":", with: "")
                if methods.contains(key) { routes.insert("\(key.uppercased()) \(normalize(currentPath))") }
            }
        }
        return routes
    }
}
