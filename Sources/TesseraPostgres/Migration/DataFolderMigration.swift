import Foundation
import GRDB
import Logging
import PostgresNIO
import TesseraCore
import TesseraGalleries
import TesseraLibrary
import TesseraSQLite

/// `tessera migrate --to postgres://…`: a SQLite data folder's galleries (items in order, revisions, Recently
/// deleted, owners and members), accounts with their access tokens, photo library index and image-signing key copied into PostgreSQL (docs/cluster.md, "Moving an
/// existing install").
///
/// The schema is migrated first; then every gallery is one transaction and the library goes in batches, each
/// an upsert by id, so a second run duplicates nothing and leaves every copied gallery as it is in SQLite
/// (SQLite wins). Afterwards both databases are counted and every gallery's item order compared: `verified`.
/// Not copied: the response cache (it refills) and the gallery image copies, which stay in the media folder.
public struct DataFolderMigration: Sendable {
    public let dataDirectory: URL
    /// `TESSERA_MEDIA`: checked for the image copies the galleries name, not copied.
    public let mediaDirectory: URL
    public let url: PostgresURL
    /// Put the data folder's signing key in place of a different one the database holds.
    public let replaceSecret: Bool
    let logger: Logger

    public init(dataDirectory: URL, mediaDirectory: URL, url: PostgresURL, replaceSecret: Bool, logger: Logger) {
        self.dataDirectory = dataDirectory
        self.mediaDirectory = mediaDirectory
        self.url = url
        self.replaceSecret = replaceSecret
        self.logger = logger
    }

    /// What was found in SQLite, read in one transaction.
    struct Snapshot: Sendable {
        var galleries: [GalleryRow] = []
        /// By gallery id, in position order.
        var items: [String: [GalleryItemRow]] = [:]
        /// In `rowid` order: the order they were first indexed, which PostgreSQL's `seq` keeps.
        var photos: [LibraryPhoto] = []
        var secret: Data?
        /// In `createdAt` order, so the first admin stays the first (it inherits galleries nobody owns).
        var accounts: [AccountRow] = []
        var tokens: [TokenRow] = []
        /// Owner account id by gallery id; galleries nobody owns are not here.
        var owners: [String: String] = [:]
        /// By gallery id.
        var members: [String: [MemberRow]] = [:]
        /// Public and drop links, by gallery id.
        var links: [String: [LinkRow]] = [:]
    }

    /// Copies, then counts both sides. `progress` gets a line per step.
    public func run(progress: @escaping @Sendable (String) -> Void) async throws(MigrationError) -> MigrationReport {
        let sqlite = try openSQLite()
        let snapshot = try await read(sqlite)
        let secret = try readSecret()
        let postgres: PostgresAppDatabase
        do throws(SharedDatabaseError) {
            postgres = try await PostgresAppDatabase.open(url, poolSize: 1, logger: logger)
        } catch {
            throw .database(error)
        }
        progress("Connected to \(url.redacted); schema at version \(PostgresAppDatabase.schemaVersion).")
        var report = MigrationReport()
        do {
            try await checkAccountNames(snapshot, postgres)
            report.secret = try await copySecret(secret, postgres)
            try await copyAccounts(snapshot, postgres)
            progress("Accounts: \(snapshot.accounts.count) copied, with \(snapshot.tokens.count) access tokens.")
            try await copyGalleries(snapshot, progress: progress)
            try await copyLibrary(snapshot.photos, postgres, progress: progress)
            report.counts = try await count(snapshot, sqlite: sqlite, secret: secret)
            report.counts += try await countAccounts(snapshot, sqlite: sqlite)
            report.counts.append(try await countLinks(snapshot, sqlite: sqlite))
            report.unorderedGalleries = try await unorderedGalleries(sqlite)
            report.unsharedGalleries = try await unsharedGalleries(sqlite)
            report.otherGalleries = try await otherGalleries(snapshot)
            report.otherAccounts = try await otherAccounts(snapshot)
        } catch let error as MigrationError {
            throw error
        } catch let error as SharedDatabaseError {
            throw .database(error)
        } catch let error as LibraryError {
            throw .database(.query(error.message))
        } catch {
            throw .database(SharedDatabaseError(error, server: url))
        }
        (report.imageCopies, report.missingImages) = missingImages(snapshot)
        return report
    }

    // MARK: - Reading SQLite

    var sqlitePath: URL { DataFolder(dataDirectory).databaseFile }

    private func openSQLite() throws(MigrationError) -> AppDatabase {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dataDirectory.path, isDirectory: &isFolder), isFolder.boolValue
        else { throw .noDataFolder(path: dataDirectory.path) }
        guard FileManager.default.fileExists(atPath: sqlitePath.path) else {
            throw .noDatabase(path: dataDirectory.path)
        }
        do {
            return try AppDatabase.open(inDirectory: dataDirectory)
        } catch {
            throw .sqlite(path: sqlitePath.path, reason: "\(error)")
        }
    }

    private func read(_ database: AppDatabase) async throws(MigrationError) -> Snapshot {
        do {
            return try await database.writer.read { db in
                var snapshot = Snapshot()
                for row in try Row.fetchAll(
                    db,
                    sql:
                        "SELECT id, name, createdAt, updatedAt, deletedAt, revision FROM gallery ORDER BY createdAt, id"
                ) {
                    snapshot.galleries.append(
                        GalleryRow(
                            id: row["id"], name: row["name"], createdAt: row["createdAt"], updatedAt: row["updatedAt"],
                            deletedAt: row["deletedAt"], revision: row["revision"]))
                }
                for row in try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, galleryId, position, item, sourceURL, imageHash, imageFormat, imageSize, width,
                            height, addedAt, pictureHash
                        FROM galleryItem ORDER BY galleryId, position
                        """)
                {
                    let item = GalleryItemRow(
                        id: row["id"], galleryID: row["galleryId"], position: row["position"], item: row["item"],
                        sourceURL: row["sourceURL"], imageHash: row["imageHash"], imageFormat: row["imageFormat"],
                        imageSize: row["imageSize"], width: row["width"], height: row["height"],
                        addedAt: row["addedAt"],
                        pictureHash: (row["pictureHash"] as String?).flatMap(PerceptualHash.init(hex:)).map {
                            Int64(bitPattern: $0.bits)
                        })
                    snapshot.items[item.galleryID, default: []].append(item)
                }
                snapshot.photos = try LibraryPhoto.fetchAll(db, sql: "SELECT * FROM libraryPhoto ORDER BY rowid")
                try Self.readAccounts(db, into: &snapshot)
                try Self.readLinks(db, into: &snapshot)
                return snapshot
            }
        } catch {
            throw .sqlite(path: sqlitePath.path, reason: "\(error)")
        }
    }

    /// The key file `tessera serve` made in the data folder; `nil` when there is none (`TESSERA_SECRET` in use).
    private func readSecret() throws(MigrationError) -> Data? {
        let file = DataFolder(dataDirectory).imageSecretFile
        guard let key = try? Data(contentsOf: file) else { return nil }
        guard key.count >= 32 else { throw .damagedSecret(path: file.path) }
        return key
    }

    // MARK: - Media

    /// The image copies the galleries name, and how many of them are not in the media folder.
    private func missingImages(_ snapshot: Snapshot) -> (total: Int, missing: Int) {
        let files = GalleryImageFiles(directory: mediaDirectory, work: BlockingPool(size: 1, name: "migrate-media"))
        let hashes = Set(snapshot.items.values.joined().map(\.imageHash))
        let missing = hashes.filter { !FileManager.default.fileExists(atPath: files.url(forHash: $0).path) }
        return (hashes.count, missing.count)
    }
}

/// What a migration found and verified.
public struct MigrationReport: Sendable {
    /// One thing counted in both databases after the copy.
    public struct Count: Sendable, Equatable {
        public var what: String
        public var sqlite: Int
        public var postgres: Int
        public var matches: Bool { sqlite == postgres }
    }

    public enum Secret: Sendable, Equatable {
        /// The data folder has no key file (its server ran with `TESSERA_SECRET`).
        case noneInFolder
        case copied
        case alreadyThere
        case replaced
    }

    public var counts: [Count] = []
    /// Galleries whose items are not in the same order on both sides (ids).
    public var unorderedGalleries: [String] = []
    /// Galleries whose owner or members differ between the two sides (ids).
    public var unsharedGalleries: [String] = []
    /// Galleries in PostgreSQL that are not from this data folder, left as they are.
    public var otherGalleries = 0
    /// Names of accounts in PostgreSQL that are not from this data folder, left as they are.
    public var otherAccounts: [String] = []
    public var secret = Secret.noneInFolder
    /// Distinct image copies the galleries name, and how many of them the media folder lacks.
    public var imageCopies = 0
    public var missingImages = 0

    /// Every count the same on both sides and every gallery in the same order.
    public var verified: Bool {
        counts.allSatisfy(\.matches) && unorderedGalleries.isEmpty && unsharedGalleries.isEmpty
    }
}
