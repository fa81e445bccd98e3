import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
import TesseraCore
import TesseraPostgres

/// The app as `tessera serve` runs it and tests build it: the environment's dependencies, the router,
/// and the services whose shutdown must follow the server's (the outbound HTTP client).
///
/// - Parameter onRunning: called with the bound port once the server accepts connections (port 0 picks one).
public func buildApplication(
    _ environment: AppEnvironment, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = buildRouter(environment)
    let serverName = "Tessera"
    let access: ImageHitAccess =
        switch environment.configuration.auth {
        case .none: .open
        case .token: .token(environment.configuration.accessToken)
        case .accounts: .router
        }
    let hitHead = ImageHitHead(date: HTTPDate(), serverName: serverName)
    let proxy = environment.imageProxy
    let settings = environment.configuration.connections
    let httpMetrics = environment.httpMetrics
    let openFiles = OpenFileLimit.raise()
    let cap = ConnectionCap(
        limit: settings.maxConnections ?? OpenFileLimit.defaultConnectionCap(openFiles: openFiles),
        logger: environment.logger)
    environment.logger.info("connections", metadata: ["open-file limit": "\(openFiles)", "cap": "\(cap.limit)"])
    var app = Application(
        router: router,
        // Every connection gets the cap and the timeouts; cached images are answered in the connection's
        // pipeline, ahead of the router (see ImageHitHandler).
        server: HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                responder: responder, timeouts: settings.timeouts, cap: cap,
                afterDecoder: { [ImageHitHandler(proxy: proxy, access: access, head: hitHead, metrics: httpMetrics)] })
        },
        configuration: .init(
            address: .hostname(environment.configuration.host, port: environment.configuration.port),
            serverName: serverName),
        // In this order, stopped in reverse: the PostgreSQL pool last, after the environment's final writes.
        services: (environment.postgres.map { [$0 as any Service] } ?? [])
            + (environment.galleryEvents.map { [$0 as any Service] } ?? [])
            + [
                EnvironmentService(environment: environment), LibraryIndexService(environment: environment),
                PictureHashService(environment: environment),
            ],
        onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
        logger: environment.logger)
    // Gallery image files a crash left without their row: once per server start, before it takes requests,
    // rather than in every command that builds an environment.
    app.beforeServerStarts { await environment.galleries.collectGarbage() }
    return app
}

/// Every route of the API. Tests call this too, and compare it with `docs/openapi.yaml`.
public func buildRouter(_ environment: AppEnvironment) -> Router<TesseraRequestContext> {
    let router = Router(context: TesseraRequestContext.self)
    // First, so its time covers all the rest.
    router.add(middleware: HTTPMetricsMiddleware(metrics: environment.httpMetrics))
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: APIErrorMiddleware(logger: environment.logger))
    let fairUse = environment.configuration.fairUse
    let crossSite = CrossSite(publicURL: environment.configuration.publicURL)
    switch environment.configuration.auth {
    case .none:
        break
    case .token:
        router.add(middleware: TokenMiddleware(token: environment.configuration.accessToken, crossSite: crossSite))
    case .accounts:
        router.add(
            middleware: AccountMiddleware(
                accounts: environment.accounts, crossSite: crossSite, trustedProxies: fairUse.trustedProxies))
    }
    // After the token or account: a client without one is refused before it spends anyone's budget.
    router.add(
        middleware: FairUseMiddleware(
            fairUse: FairUse(rates: fairUse.rates), streams: StreamCount(limit: fairUse.maxStreamsPerClient),
            trustedProxies: fairUse.trustedProxies,
            maxJSONBytes: GalleriesController<TesseraRequestContext>.maxJSONBytes))
    let readiness = Readiness(
        dataDirectory: environment.configuration.dataDirectory, database: environment.database,
        shared: environment.postgres.map { postgres in
            Readiness.SharedDatabase(name: postgres.url.redacted, ping: { try await postgres.ping() })
        },
        logger: environment.logger)
    MetaController(search: environment.search, readiness: readiness).addRoutes(to: router)
    MetricsController(registry: environment.metricsRegistry).addRoutes(to: router)
    let events = ServerSentEvents.Settings(heartbeat: environment.configuration.connections.heartbeat)
    SearchController(
        search: environment.search, linker: environment.imageLinker, proxy: environment.imageProxy,
        prefetch: environment.configuration.images.prefetch,
        prefetchWait: .seconds(environment.configuration.images.prefetchWaitSeconds), events: events
    )
    .addRoutes(to: router)
    ItemsController(search: environment.search, linker: environment.imageLinker).addRoutes(to: router)
    HoldingController(galleries: environment.galleries).addRoutes(to: router)
    ImagesController(
        proxy: environment.imageProxy,
        galleries: environment.configuration.auth == .accounts ? environment.galleries : nil
    ).addRoutes(to: router)
    MediaController(proxy: environment.mediaProxy).addRoutes(to: router)
    GalleriesController(
        galleries: environment.galleries, maxUploadBytes: environment.configuration.images.maxBytes, events: events,
        accounts: environment.configuration.auth == .accounts ? environment.accounts : nil
    ).addRoutes(to: router)
    AccountsController(
        accounts: environment.accounts, mode: environment.configuration.auth,
        cookie: SessionCookie(configuration: environment.configuration), trustedProxies: fairUse.trustedProxies
    ).addRoutes(to: router)
    let accountsOn = environment.configuration.auth == .accounts ? environment.accounts : nil
    LinksController(galleries: environment.galleries, accounts: accountsOn).addRoutes(to: router)
    SharedController(
        galleries: environment.galleries, accounts: accountsOn, assets: environment.webAssets,
        images: ImagesController(proxy: environment.imageProxy),
        cookie: LinkCookie(configuration: environment.configuration), trustedProxies: fairUse.trustedProxies,
        maxUploadBytes: environment.configuration.images.maxBytes
    ).addRoutes(to: router)
    WebController(assets: environment.webAssets, auth: environment.configuration.auth).addRoutes(to: router)
    // Last, so it wraps only the not-found answer: a known path with another method is 405 with Allow.
    router.add(middleware: MethodNotAllowedMiddleware(routes: router.routes.map { ($0.path.description, $0.method) }))
    return router
}

/// Keeps the environment alive while the server runs and shuts it down after the server has stopped.
struct EnvironmentService: Service {
    let environment: AppEnvironment

    func run() async throws {
        try? await gracefulShutdown()
        try await environment.shutdown()
    }
}

/// Brings the photo index up to date with the library folders once at start, in the background: unchanged
/// files are skipped, so a restart costs a walk of the folders. Stops early (resumable) on shutdown.
///
/// On PostgreSQL the index is shared: only the server that gets the indexing lock indexes; the others say so
/// and serve from the index as it is (and as the indexing server fills it).
struct LibraryIndexService: Service {
    let environment: AppEnvironment

    func run() async throws {
        let logger = environment.logger
        let roots = environment.configuration.libraryRoots
        let indexer = environment.libraryIndexer
        let indexing = Task {
            guard !roots.isEmpty else { return }
            do {
                let ran: Void? = try await indexer.store.whileIndexing {
                    for root in roots {
                        do {
                            let summary = try await indexer.index(folder: root)
                            logger.info(
                                "library indexed", metadata: ["folder": "\(root)", "summary": "\(summary.line)"])
                        } catch {
                            logger.warning("library not indexed", metadata: ["folder": "\(root)", "error": "\(error)"])
                        }
                    }
                }
                if ran == nil {
                    logger.notice(
                        "library not indexed here: another server is indexing the shared index; searching it as it is")
                }
            } catch {
                logger.warning("library not indexed", metadata: ["error": "\(error)"])
            }
        }
        try? await gracefulShutdown()
        indexing.cancel()
        _ = await indexing.value
    }
}

/// Makes the perceptual hash of every gallery item without one, once at start, in the background
/// (`GalleryService.hashMissingPictures`, docs/galleries.md, "Near duplicates"). Stops on shutdown.
struct PictureHashService: Service {
    let environment: AppEnvironment

    func run() async throws {
        let (galleries, logger) = (environment.galleries, environment.logger)
        let hashing = Task {
            let made = await galleries.hashMissingPictures()
            if made > 0 { logger.info("gallery pictures hashed", metadata: ["count": "\(made)"]) }
        }
        try? await gracefulShutdown()
        hashing.cancel()
        _ = await hashing.value
    }
}

extension AppConfiguration {
    /// The token of `TESSERA_AUTH=token`. Without `TESSERA_TOKEN` (which `validateForServing` refuses, but an app
    /// built another way might not have checked) a random one nobody knows: the server stays closed, not open.
    var accessToken: AccessToken {
        AccessToken(token: token ?? UUID().uuidString + UUID().uuidString)
    }
}
