import Foundation
import GRDB

/// A copy of the live SQLite database as one transaction sees it, made with `VACUUM INTO` while other
/// connections (a running server's) go on writing, and trimmed of what a backup leaves out.
enum SQLiteSnapshot {
    /// What the copy holds: counts for the summary, and the image copies its gallery items name.
    struct Contents {
        let galleries: Int
        let items: Int
        let hashes: [String]
    }

    /// The migration whose tables a backup reads; a database without it is not Tessera's (or predates galleries).
    static let galleriesMigration = "v3-galleries"

    static func take(of live: URL, into snapshot: URL) throws(BackupError) -> Contents {
        do {
            var configuration = Configuration()
            // A writer holding the lock makes the copy wait its turn, as the server's own connections do.
            configuration.busyMode = .timeout(30)
            let source = try DatabaseQueue(path: live.path, configuration: configuration)
            try source.inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [snapshot.path]) }
            try source.close()
        } catch {
            throw .database(path: live.path, reason: reason(error))
        }
        do {
            let copy = try DatabaseQueue(path: snapshot.path)
            let contents = try copy.inDatabase { db throws -> Contents? in
                let migrations =
                    try db.tableExists("grdb_migrations")
                    ? try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") : []
                guard migrations.contains(galleriesMigration) else { return nil }
                // One file, no WAL beside it; the response cache refills from the services (docs/deploy.md).
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                try db.execute(sql: "DELETE FROM responseCache")
                try db.execute(sql: "VACUUM")
                return Contents(
                    galleries: try Int.fetchOne(db, sql: "SELECT count(*) FROM gallery") ?? 0,
                    items: try Int.fetchOne(db, sql: "SELECT count(*) FROM galleryItem") ?? 0,
                    hashes: try String.fetchAll(
                        db, sql: "SELECT DISTINCT imageHash FROM galleryItem ORDER BY imageHash"))
            }
            try copy.close()
            guard let contents else {
                throw BackupError.database(
                    path: live.path, reason: "it is not a Tessera database (no galleries in it); check --data")
            }
            return contents
        } catch let error as BackupError {
            throw error
        } catch {
            throw .database(path: live.path, reason: "its copy could not be read: \(reason(error))")
        }
    }

    /// SQLite's own sentence, without GRDB's statement dump.
    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "SQLite error \(error.resultCode)" }
        return error.localizedDescription
    }
}
