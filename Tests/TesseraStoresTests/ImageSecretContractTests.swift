import Foundation
import TesseraCore
import TesseraImageProxy
import TesseraPostgres
import TesseraTestSupport
import Testing

/// The image-signing key without `TESSERA_SECRET`, on both engines: made once, the same for everyone who
/// asks, however many ask at the same moment (servers starting together).
@Suite("Image-signing key on both engines")
struct ImageSecretContractTests {
    private func withStores(
        _ engine: Engine,
        _ body: @escaping @Sendable (_ open: @escaping @Sendable () -> any ImageSecretStore) async throws -> Void
    ) async throws {
        switch engine {
        case .sqlite:
            try await withTemporaryFolder { folder in try await body { ImageSecretFile(directory: folder) } }
        case .postgres:
            let server = try requirePostgres()
            try await TestPostgres.withRunningDatabase(on: server) { database in
                try await body { PostgresImageSecret(database: database) }
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func manyStartingAtOnceAllReadTheSameKey(engine: Engine) async throws {
        try await withStores(engine) { open in
            let keys = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<12 { group.addTask { try await open().loadOrCreate() } }
                return try await group.reduce(into: [Data]()) { $0.append($1) }
            }
            #expect(keys.count == 12)
            #expect(Set(keys).count == 1, "one key for all")
            #expect(keys[0].count == 32)
            #expect(try await open().loadOrCreate() == keys[0], "and the same later")
        }
    }

    @Test(arguments: Engine.allCases)
    func aConfiguredSecretWinsOverTheStoredKey(engine: Engine) async throws {
        try await withStores(engine) { open in
            let stored = try await ImageSecret.load(configured: nil, store: open())
            let configured = try await ImageSecret.load(configured: "shared", store: open())
            #expect(configured != stored)
            #expect(try await ImageSecret.load(configured: "shared", store: open()) == configured)
            #expect(try await ImageSecret.load(configured: nil, store: open()) == stored)
        }
    }
}
