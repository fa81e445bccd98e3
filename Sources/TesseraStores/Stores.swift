import Foundation
import Logging
import Metrics
import TesseraAccounts
import TesseraCore
import TesseraDatabaseMetrics
import TesseraGalleries
import TesseraImageProxy
import TesseraLibrary
import TesseraPostgres
import TesseraSQLite

/// Every store the app keeps, on the engine the settings choose: the data folder's SQLite file alone, or with a
/// database URL the PostgreSQL database several servers share. The one place that chooses; the server, the CLI
/// and the benchmarks take what it opens and see only the contracts.
public struct Stores: Sendable {
    /// The data folder's own database. Open on either engine: `/api/health` checks it, and on PostgreSQL it is
    /// what `tessera migrate` copied from.
    public let sqlite: AppDatabase
    /// The shared database, with a database URL; run as a service beside the server (its pool).
    public let postgres: PostgresAppDatabase?
    /// Every server's gallery changes, heard through the shared database (run as a service).
    public let galleryEvents: PostgresGalleryEvents?
    public let responseCache: any ResponseCacheStoring
    public let imageSecret: any ImageSecretStore
    /// Budgets shared by every user: in this process on SQLite, in the database with several servers.
    public let requestBudgets: any RequestBudgeting
    public let library: any LibraryStoring
    public let thumbnailHashes: any ThumbnailHashStoring
    public let galleries: GalleryStoreMaker
    public let links: any LinkStoring
    public let accounts: any AccountStoring

    /// Opens PostgreSQL first when `databaseURL` is given, so a wrong URL or a database out of reach ends
    /// start-up before anything else is done; then the data folder's SQLite file.
    ///
    /// - Parameter now: the wall clock the in-process request budgets go by.
    public static func open(
        dataDirectory: URL, databaseURL: PostgresURL?, poolSize: Int, metrics: any MetricsFactory, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) async throws -> Stores {
        var postgres: PostgresAppDatabase?
        if let databaseURL {
            postgres = try await PostgresAppDatabase.open(
                databaseURL, poolSize: poolSize, metrics: DatabaseMetrics(factory: metrics, engine: "postgresql"),
                logger: logger)
        }
        let sqlite = try AppDatabase.open(inDirectory: dataDirectory, metrics: metrics)
        if let postgres {
            return Stores(postgres: postgres, sqlite: sqlite, logger: logger)
        }
        return Stores(sqlite: sqlite, dataDirectory: dataDirectory, logger: logger, now: now)
    }

    /// Every store on the data folder's SQLite file; the image-signing key in the data folder beside it.
    public init(sqlite: AppDatabase, dataDirectory: URL, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.sqlite = sqlite
        postgres = nil
        galleryEvents = nil
        responseCache = SQLiteResponseCache(database: sqlite, logger: logger)
        imageSecret = ImageSecretFile(directory: dataDirectory)
        requestBudgets = MemoryRequestBudgets(now: now)
        library = SQLiteLibraryStore(database: sqlite)
        thumbnailHashes = SQLiteThumbnailHashes(database: sqlite, logger: logger)
        galleries = { linker, onChange in SQLiteGalleryStore(database: sqlite, linker: linker, onChange: onChange) }
        links = SQLiteLinkStore(database: sqlite)
        accounts = SQLiteAccountStore(database: sqlite)
    }

    /// Every store on the shared PostgreSQL database.
    public init(postgres: PostgresAppDatabase, sqlite: AppDatabase, logger: Logger) {
        self.sqlite = sqlite
        self.postgres = postgres
        galleryEvents = PostgresGalleryEvents(database: postgres, logger: logger)
        responseCache = PostgresResponseCache(database: postgres, logger: logger)
        imageSecret = PostgresImageSecret(database: postgres)
        requestBudgets = PostgresRequestBudgets(database: postgres, logger: logger)
        library = PostgresLibraryStore(database: postgres, logger: logger)
        thumbnailHashes = PostgresThumbnailHashes(database: postgres, logger: logger)
        galleries = { PostgresGalleryStore(database: postgres, linker: $0, onChange: $1) }
        links = PostgresLinkStore(database: postgres)
        accounts = PostgresAccountStore(database: postgres)
    }

    /// The library index alone, for `tessera library`: the shared one with a database URL (migrated first, as
    /// `serve` does), else the data folder's.
    public static func library(
        dataDirectory: URL, databaseURL: PostgresURL?, poolSize: Int, logger: Logger
    ) async throws -> any LibraryStoring {
        if let databaseURL {
            let database = try await PostgresAppDatabase.open(databaseURL, poolSize: poolSize, logger: logger)
            return PostgresLibraryStore(database: database, logger: logger)
        }
        return try SQLiteLibraryStore.open(dataDirectory: dataDirectory)
    }
}
