import Foundation
import GRDB
import Logging
import Synchronization
import TesseraCore

/// Thumbnail hashes in SQLite (`thumbnailHash`, `v8-picture-hashes`): what the image proxy made, read back when
/// its memory does not have it (after a restart, or once evicted there).
///
/// Which sources have a row is also kept in memory (read once at start, a fingerprint each), so a search page's
/// pictures that were never hashed, the common case for a new search, cost a set lookup rather than a trip to
/// SQLite on the answer's path. As with the response cache, rows another process writes to the same data
/// folder meanwhile are seen by `hashes(of:)` after a restart (`hash(of:)` always reads SQLite).
public struct SQLiteThumbnailHashes: ThumbnailHashStoring {
    private let database: AppDatabase
    private let logger: Logger
    /// `nil` when the rows could not be listed at start: then every read asks SQLite.
    private let stored: StoredSources?

    public init(database: AppDatabase, logger: Logger = Logger(label: "tessera.thumbnail-hashes")) {
        self.database = database
        self.logger = logger
        do {
            stored = StoredSources(try Self.listSources(database))
        } catch {
            logger.warning("thumbnail hashes not listed, reading each from SQLite", metadata: ["error": "\(error)"])
            stored = nil
        }
    }

    private static func listSources(_ database: AppDatabase) throws -> Set<Int> {
        try database.writer.read { db in
            var fingerprints = Set<Int>()
            let sources = try String.fetchCursor(db, sql: "SELECT source FROM thumbnailHash")
            while let source = try sources.next() { fingerprints.insert(source.hashValue) }
            return fingerprints
        }
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
        let sources = stored.map { stored in sources.filter(stored.mayContain) } ?? sources
        guard !sources.isEmpty else { return found }
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

    public func store(_ hashes: [String: PerceptualHash], now: Date) async {
        guard !hashes.isEmpty else { return }
        // Before the write: a read meanwhile asks SQLite, which has the rows once the write is done.
        for source in hashes.keys { stored?.insert(source) }
        do {
            try await database.write { db in
                let insert = try db.cachedStatement(
                    sql: "INSERT OR REPLACE INTO thumbnailHash (source, hash, madeAt) VALUES (?, ?, ?)")
                for (source, hash) in hashes {
                    try insert.execute(arguments: [source, hash.description, now.timeIntervalSince1970])
                }
            }
        } catch {
            logger.warning("thumbnail hash not kept", metadata: ["error": "\(error)"])
        }
    }

    @discardableResult public func purge(before cutoff: Date) async throws -> Int {
        let purged = try await database.write { db in
            try db.execute(
                sql: "DELETE FROM thumbnailHash WHERE madeAt < ?", arguments: [cutoff.timeIntervalSince1970])
            return db.changesCount
        }
        // A source purged and still listed would only cost a read; listed again so the set does not grow.
        if purged > 0, let stored { stored.replace(with: try Self.listSources(database)) }
        return purged
    }
}

/// Fingerprints (`hashValue`, this process only) of the sources with a row: a fingerprint shared by two
/// sources only costs the other one a read.
private final class StoredSources: Sendable {
    private let fingerprints: Mutex<Set<Int>>

    init(_ fingerprints: Set<Int>) {
        self.fingerprints = Mutex(fingerprints)
    }

    func mayContain(_ source: String) -> Bool {
        let fingerprint = source.hashValue
        return fingerprints.withLock { $0.contains(fingerprint) }
    }

    func insert(_ source: String) {
        let fingerprint = source.hashValue
        fingerprints.withLock { _ = $0.insert(fingerprint) }
    }

    func replace(with fingerprints: Set<Int>) {
        self.fingerprints.withLock { $0 = fingerprints }
    }
}
