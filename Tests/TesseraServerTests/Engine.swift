import Foundation
import TesseraPostgres
import TesseraTestSupport
import Testing

/// The two engines a server can keep its stores in, for the HTTP tests that run on both: SQLite in the data
/// folder (no setting), or PostgreSQL (`TESSERA_DATABASE_URL`, a fresh database per test on the tests' cluster).
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// Runs `body` with the environment that selects this engine (skipping the PostgreSQL case when there is no
    /// cluster and none is required; see `TestPostgres`).
    func withEnvironment(_ body: ([String: String]) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            try await body([:])
        case .postgres:
            guard let server = try TestPostgres.server() else {
                try Test.cancel(Comment(rawValue: TestPostgres.skipMessage))
            }
            try await TestPostgres.withFreshDatabase(on: server) { url in
                try await body(["TESSERA_DATABASE_URL": url.urlText])
            }
        }
    }
}
