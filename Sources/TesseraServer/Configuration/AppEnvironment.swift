import AsyncHTTPClient
import Foundation
import Logging
import Prometheus
import TesseraAccounts
import TesseraCore
import TesseraFetcher
import TesseraGalleries
import TesseraImageProcessing
import TesseraImageProxy
import TesseraLibrary
import TesseraPostgres
import TesseraSQLite
import TesseraSources
import TesseraStores

/// Every long-lived dependency, built once and passed down: the server and the CLI both start here.
public struct AppEnvironment: Sendable {
    public let configuration: AppConfiguration
    /// The one outbound HTTP client, with its connection pool, shared by every source.
    public let httpClient: HTTPClient
    public let database: AppDatabase
    /// The PostgreSQL database shared with other servers (`TESSERA_DATABASE_URL`), run as a service beside the
    /// server; `nil` with SQLite alone. What it holds: docs/cluster.md, "PostgreSQL".
    public let postgres: PostgresAppDatabase?
    /// Every server's gallery changes, heard through the database (with `postgres`; run as a service).
    public let galleryEvents: PostgresGalleryEvents?
    public let search: SearchService
    public let imageLinker: any ImageLinking
    /// `/img/...`: the guarded fetcher, libvips and the image caches behind signed URLs.
    public let imageProxy: ImageProxy
    public let imageFetcher: ImageFetcher
    public let imageMemoryCache: MemoryImageCache
    /// `/media/...`: services' audio and video previews behind signed URLs, through the same fetcher.
    public let mediaProxy: MediaProxy
    /// The indexer `tessera serve` runs over the library folders (the index behind the `local` source).
    public let libraryIndexer: LibraryIndexer
    public let responseCache: any ResponseCacheStoring
    public let webAssets: WebAssets
    /// Galleries, their image copies and live events: the one door to everything about galleries.
    public let galleries: GalleryService
    /// Users, sessions and personal access tokens (used by the server in `TESSERA_AUTH=accounts`, and by
    /// `tessera user` whatever the mode).
    public let accounts: AccountService
    public let logger: Logger
    /// This app's own metrics, which `/metrics` shows. Never the process-wide `MetricsSystem`: every part
    /// gets `metricsFactory`, so apps in one process (the tests) keep their figures apart.
    public let metricsRegistry: PrometheusCollectorRegistry
    public let metricsFactory: PrometheusMetricsFactory
    /// Shared by the router's middleware and the image fast path.
    let httpMetrics: HTTPMetrics

    /// Builds the live environment from `configuration`. Call `shutdown()` when done.
    ///
    /// - Parameter now: the wall clock the response cache and the request budgets go by; tests pass their own.
    public static func live(
        _ configuration: AppConfiguration, logger: Logger, now: @escaping @Sendable () -> Date = Date.init
    ) async throws -> AppEnvironment {
        let registry = PrometheusCollectorRegistry()
        let metrics = PrometheusMetricsFactory.tessera(registry)
        let stores = try await Stores.open(
            dataDirectory: configuration.dataDirectory, databaseURL: configuration.databaseURL,
            poolSize: configuration.databasePool, metrics: metrics, logger: logger, now: now)
        let cache = stores.responseCache
        try await cache.purgeExpired(now: now())
        let secret = try await ImageSecret.load(configured: configuration.secret, store: stores.imageSecret)
        if let postgres = stores.postgres {
            logger.notice(
                """
                PostgreSQL holds galleries, the response cache, the image-signing key and the library index; \
                gallery image copies stay in this server's data folder (docs/deploy.md, "PostgreSQL")
                """,
                metadata: ["database": "\(postgres.url.redacted)"])
        }
        let httpClient = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(
                redirectConfiguration: .follow(max: 5, allowCycles: false),
                timeout: .init(connect: .seconds(5), read: .seconds(30)),
                connectionPool: .sources))
        let sourceMetrics = SourceMetrics(factory: metrics)
        let http = SourceHTTP(
            client: httpClient, cache: cache, requestTimeout: configuration.sourceTimeout, now: now, logger: logger,
            metrics: sourceMetrics,
            budgets: SourceBudgets(
                store: stores.requestBudgets, budgets: configuration.budgets.budgets(keys: configuration.sources)))
        // On PostgreSQL the index is shared: one server indexes at a time (`LibraryIndexService`), all search it.
        let library = stores.library
        let roots = configuration.libraryRoots
        let sources =
            SourceCatalog.sources(configuration.sources, http: http) + [LocalSource(store: library, roots: roots)]
        let signer = ImageURLSigner(secret: secret)
        let images = configuration.images
        let fetcher = ImageFetcher(
            policy: FetchPolicy(
                maxBytes: images.maxBytes, allowPrivateNetworks: images.allowPrivateNetworks,
                trustedOrigins: Set(
                    configuration.sources.overriddenBases.compactMap { FetchPolicy.origin(of: $0.absoluteString) })),
            logger: logger, metrics: metrics)
        let memory = MemoryImageCache(capacityBytes: images.memoryCacheBytes)
        let disk =
            images.diskCacheBytes > 0
            ? try await DiskImageCache.open(
                directory: DataFolder(configuration.dataDirectory).imageCacheFolder,
                capacityBytes: images.diskCacheBytes, logger: logger)
            : nil
        let processor = ImageProcessor(maxPixels: images.maxPixels, concurrency: images.concurrency)
        logger.info(
            "imaging",
            metadata: [
                "concurrency": "\(processor.concurrency)", "vector code": "\(ImageProcessor.vectorCode ? "on" : "off")",
            ])
        let galleryFiles = GalleryImageFiles(directory: configuration.mediaDirectory)
        // Shared by every server on PostgreSQL; hashes not made again for 90 days go (a cache, docs/duplicates.md).
        let thumbnailHashes = stores.thumbnailHashes
        try await thumbnailHashes.purge(before: now().addingTimeInterval(-90 * 86_400))
        let proxy = ImageProxy(
            signer: signer, fetcher: fetcher, processor: processor, memory: memory, disk: disk,
            files: ImageFilesByKind(library: LibraryFiles(roots: roots), stored: galleryFiles),
            thumbnailHashes: thumbnailHashes, logger: logger, metrics: metrics)
        let media = MediaProxy(
            signer: signer, fetcher: fetcher, maxBytes: configuration.previews.maxBytes,
            cacheBytes: configuration.previews.memoryCacheBytes, logger: logger)
        let galleries = GalleryService(
            store: stores.galleries, links: stores.links, feed: stores.galleryEvents, files: galleryFiles,
            images: proxy, fetcher: fetcher, inspector: processor, linker: signer, logger: logger, metrics: metrics,
            heartbeat: configuration.connections.heartbeat)
        return AppEnvironment(
            configuration: configuration, httpClient: httpClient, database: stores.sqlite, postgres: stores.postgres,
            galleryEvents: stores.galleryEvents,
            search: SearchService(sources: sources, timeout: configuration.sourceTimeout, observer: sourceMetrics),
            imageLinker: signer, imageProxy: proxy, imageFetcher: fetcher, imageMemoryCache: memory,
            mediaProxy: media,
            libraryIndexer: LibraryIndexer(store: library, processor: processor),
            responseCache: cache, webAssets: try WebAssets.bundled(), galleries: galleries,
            accounts: AccountService(store: stores.accounts, settings: configuration.accounts, now: now),
            logger: logger,
            metricsRegistry: registry, metricsFactory: metrics,
            httpMetrics: HTTPMetrics(factory: metrics, imageRoute: ImagesController<TesseraRequestContext>.path))
    }

    /// Writes what is still queued for the response cache, closes the HTTP client's connections and then the
    /// SQLite database (its handles go now, not whenever the last reference does).
    public func shutdown() async throws {
        await responseCache.flush()
        try await imageFetcher.shutdown()
        try await httpClient.shutdown()
        try database.close()
    }
}

extension PrometheusMetricsFactory {
    /// A factory writing to `registry`, with latency buckets from 0.5 ms (most answers here take under a
    /// millisecond; the library's default starts at 5 ms) to 10 s (a source's time limit).
    static func tessera(_ registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        return factory
    }
}
