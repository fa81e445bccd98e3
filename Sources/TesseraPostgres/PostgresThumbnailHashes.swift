import Foundation
import Logging
import PostgresNIO
import TesseraCore

/// Thumbnail hashes in PostgreSQL (`thumbnail_hash`, migration 10), shared by every server on the database: a
/// thumbnail one server made has its hash known to the others, which then group its picture by look without
/// making the thumbnail themselves. The same contract as SQLite's `SQLiteThumbnailHashes`.
public struct PostgresThumbnailHashes: ThumbnailHashStoring {
    private let database: PostgresAppDatabase
    private let logger: Logger

    public init(database: PostgresAppDatabase, logger: Logger = Logger(label: "tessera.thumbnail-hashes")) {
        self.database = database
        self.logger = logger
    }

    public func hash(of source: String) async -> PerceptualHash? {
        do {
            return try await database.withConnection { connection -> PerceptualHash? in
                let rows = try await connection.query(
                    "SELECT hash FROM thumbnail_hash WHERE source = \(source)", logger: Logger.quiet)
                for try await bits in rows.decode(Int64.self) { return PerceptualHash(bits: UInt64(bitPattern: bits)) }
                return nil
            }
        } catch {
            logger.warning("thumbnail hash unreadable", metadata: ["error": "\(error)"])
            return nil
        }
    }

    public func hashes(of sources: [String]) async -> [String: PerceptualHash] {
        guard !sources.isEmpty else { return [:] }
        do {
            return try await database.withConnection { connection -> [String: PerceptualHash] in
                var found: [String: PerceptualHash] = [:]
                let rows = try await connection.query(
                    "SELECT source, hash FROM thumbnail_hash WHERE source = ANY(\(sources))", logger: Logger.quiet)
                for try await (source, bits) in rows.decode((String, Int64).self) {
                    found[source] = PerceptualHash(bits: UInt64(bitPattern: bits))
                }
                return found
            }
        } catch {
            logger.warning("thumbnail hashes unreadable", metadata: ["error": "\(error)"])
            return [:]
        }
    }

    public func store(_ hashes: [String: PerceptualHash], now: Date) async {
        guard !hashes.isEmpty else { return }
        // One statement for the batch; its sources are distinct (a dictionary's keys), as ON CONFLICT needs.
        let sources = hashes.map(\.key)
        let bits = hashes.map { Int64(bitPattern: $0.value.bits) }
        let moment = now.timeIntervalSince1970
        do {
            try await database.withConnection { connection in
                _ = try await connection.query(
                    """
                    INSERT INTO thumbnail_hash (source, hash, made_at)
                    SELECT source, hash, \(moment) FROM UNNEST(\(sources)::text[], \(bits)::bigint[]) AS batch(source, hash)
                    ON CONFLICT (source) DO UPDATE SET hash = excluded.hash, made_at = excluded.made_at
                    """, logger: Logger.quiet)
            }
        } catch {
            logger.warning("thumbnail hash not kept", metadata: ["error": "\(error)"])
        }
    }

    @discardableResult public func purge(before cutoff: Date) async throws -> Int {
        let moment = cutoff.timeIntervalSince1970
        return try await database.withConnection { connection in
            var count = 0
            for try await removed in try await connection.query(
                "WITH gone AS (DELETE FROM thumbnail_hash WHERE made_at < \(moment) RETURNING 1) SELECT count(*) FROM gone",
                logger: Logger.quiet
            ).decode(Int.self) {
                count = removed
            }
            return count
        }
    }
}
