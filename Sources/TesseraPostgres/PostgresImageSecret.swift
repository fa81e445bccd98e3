import Foundation
import Logging
import PostgresNIO
import TesseraCore

/// The image-signing key in the shared database, so every server signs URLs alike without `TESSERA_SECRET`.
///
/// Made once, race-free: each starting server offers a random key with `INSERT … ON CONFLICT DO NOTHING`,
/// then reads the row, so all of them read the key that was inserted first.
public struct PostgresImageSecret: ImageSecretStore {
    static let name = "image-secret"
    let database: PostgresAppDatabase

    public init(database: PostgresAppDatabase) {
        self.database = database
    }

    public func loadOrCreate() async throws -> Data {
        let offered = Self.newKey()
        let name = Self.name
        return try await database.withConnection { connection -> Data in
            try await connection.query(
                "INSERT INTO setting (name, value) VALUES (\(name), \(offered)) ON CONFLICT (name) DO NOTHING",
                logger: .quiet)
            for try await value in try await connection.query(
                "SELECT value FROM setting WHERE name = \(name)", logger: .quiet
            ).decode(Data.self) where value.count >= 32 {
                return value
            }
            throw SharedDatabaseError.query("the stored image-signing key is missing or shorter than 32 bytes")
        }
    }
}
