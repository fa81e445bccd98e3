import Foundation
import Logging
import TesseraPostgres
import TesseraTestSupport
import Testing

/// The two engines every store contract runs on: the same test, once each (`@Test(arguments: Engine.allCases)`).
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// The cluster's URL for `.postgres` (skipping the test when there is none and none is required); `nil` for
    /// `.sqlite`.
    func server() throws -> PostgresURL? {
        guard self == .postgres else { return nil }
        guard let server = try TestPostgres.server() else {
            try Test.cancel(Comment(rawValue: TestPostgres.skipMessage))
        }
        return server
    }
}

/// The cluster's URL, or the test skipped (or failed under ./scripts/test) when there is none.
func requirePostgres() throws -> PostgresURL {
    try Engine.postgres.server()!
}

/// A data folder of its own, removed after `body`.
func withTemporaryFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-engine-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

let quietLogger = Logger(label: "tessera.test", factory: { _ in SwiftLogNoOpLogHandler() })
