import AsyncHTTPClient
import Foundation
import Logging
import TesseraCore
import TesseraImages
import TesseraSources
import TesseraStorage

/// Every long-lived dependency, built once and passed down: the server and the CLI both start here.
public struct AppEnvironment: Sendable {
    public let configuration: AppConfiguration
    /// The one outbound HTTP client, with its connection pool, shared by every source.
    public let httpClient: HTTPClient
    public let database: AppDatabase
    public let search: SearchService
    public let imageLinker: any ImageLinking
    public let responseCache: ResponseCacheStore
    public let logger: Logger

    /// Builds the live environment from `configuration`. Call `shutdown()` when done.
    public static func live(_ configuration: AppConfiguration, logger: Logger) async throws -> AppEnvironment {
        let database = try AppDatabase.open(inDirectory: configuration.dataDirectory)
        let cache = ResponseCacheStore(database: database, logger: logger)
        try await cache.purgeExpired()
        let secret = try ImageSecret.load(configured: configuration.secret, dataDirectory: configuration.dataDirectory)
        let httpClient = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(
                redirectConfiguration: .follow(max: 5, allowCycles: false),
                timeout: .init(connect: .seconds(5), read: .seconds(30)),
                connectionPool: .init(idleTimeout: .seconds(60))))
        let http = SourceHTTP(
            client: httpClient, cache: cache, requestTimeout: configuration.sourceTimeout, logger: logger)
        let sources = SourceCatalog.sources(configuration.sources, http: http)
        return AppEnvironment(
            configuration: configuration, httpClient: httpClient, database: database,
            search: SearchService(sources: sources, timeout: configuration.sourceTimeout),
            imageLinker: ImageURLSigner(secret: secret), responseCache: cache, logger: logger)
    }

    /// Writes what is still queued for the response cache and closes the HTTP client's connections.
    public func shutdown() async throws {
        await responseCache.flush()
        try await httpClient.shutdown()
    }
}
