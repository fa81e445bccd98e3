import Foundation
import GRDB
import Logging
import TesseraCore

/// Thumbnail hashes in SQLite (`thumbnailHash`, `v8-picture-hashes`): what the image proxy made, read back when
/// neither memory nor a side file in the disk cache has it (the disk cache off, or its entry evicted).
public struct ThumbnailHashStore: ThumbnailHashStoring {
    private let database: AppDatabase
    private let logger: Logger

    public init(database: AppDatabase, logger: Logger = Logger(label: "tessera.thumbnail-hashes")) {
        self.database = database
        self.logger = logger
    }

    public func hash(of source: String) async -> PerceptualHash? {
        do {
            let text = try await database.writer.read { db in
                try String.fetchOne(db, sql: "SELECT hash FROM thumbnailHash WHERE source = ?", arguments: [source])
            }
            return text.flatMap { PerceptualHash(hex: $0) }
        } catch {
            logger.warning("thumbnail hash unreadable", metadata: ["error": "\(error)"])
            return nil
        }
    }

    public func hashes(of sources: [String]) async -> [String: PerceptualHash] {
        var found: [String: PerceptualHash] = [:]
        do {
            // SQLite's bound-variable limit is 32,766; a page holds a few hundred pictures at most.
            for chunk in stride(from: 0, to: sources.count, by: 500).map({ sources[$0..<min($0 + 500, sources.count)] })
            {
                let rows = try await database.writer.read { db in
                    try Row.fetchAll(
                        db,
                        sql: "SELECT source, hash FROM thumbnailHash WHERE source IN ("
                            + Array(repeating: "?", count: chunk.count).joined(separator: ",") + ")",
                        arguments: StatementArguments(Array(chunk)))
                }
                for row in rows {
                    let (source, text): (String, String) = (row["source"], row["hash"])
                    if let hash = PerceptualHash(hex: text) { found[source] = hash }
                }
            }
        } catch {
            logger.warning("thumbnail hashes unreadable", metadata: ["error": "\(error)"])
        }
        return found
    }

    public func store(_ hash: PerceptualHash, for source: String, now: Date) async {
        do {
            try await database.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO thumbnailHash (source, hash, madeAt) VALUES (?, ?, ?)",
                    arguments: [source, hash.description, now.timeIntervalSince1970])
            }
        } catch {
            logger.warning("thumbnail hash not kept", metadata: ["error": "\(error)"])
        }
    }

    @discardableResult public func purge(before cutoff: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM thumbnailHash WHERE madeAt < ?", arguments: [cutoff.timeIntervalSince1970])
            return db.changesCount
        }
    }
}
