// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Tessera",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tessera", targets: ["tessera"]),
        .executable(name: "tessera-bench", targets: ["TesseraBench"]),
        // A Swift client of the HTTP API for apps and tools (docs/client.md).
        .library(name: "TesseraClient", targets: ["TesseraClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // bcrypt for account passwords (HummingbirdBcrypt only: a small C target, no other dependency).
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Tests only: reads docs/openapi.yaml with a real OpenAPI parser (no external loading, which builds slower).
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", from: "6.4.0", traits: []),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // TesseraClient: the runtime its generated code needs, a transport per platform, and the generator that
        // scripts/generate-client runs (its code is committed, no build plugin; docs/client.md).
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
    ],
    targets: [
        // Domain types and the search fan-out. Foundation only: no NIO, no database.
        .target(name: "TesseraCore"),
        // One client per remote service, speaking its wire format over AsyncHTTPClient.
        .target(
            name: "TesseraSources",
            dependencies: [
                "TesseraCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The database's figures for /metrics, which both engines report the same way.
        .target(
            name: "TesseraDatabaseMetrics",
            dependencies: [.product(name: "Metrics", package: "swift-metrics")]
        ),
        // libvips, the C library: `pkg-config vips`, Debian's libvips-dev. Fixed-argument wrappers in shim.h.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // A lock around liborc's unguarded free of compiled code, which libvips calls (Sources/COrcLock).
        .target(name: "COrcLock"),
        // Image bytes in and out through libvips: sniffing, headers, thumbnails, embedded metadata.
        .target(
            name: "TesseraImageProcessing",
            dependencies: [
                "CVips",
                "COrcLock",
                "TesseraCore",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The guarded outbound fetcher for images: schemes, refused addresses, redirects, size caps.
        .target(
            name: "TesseraFetcher",
            dependencies: [
                "TesseraCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The user's own photo folders: the index's contract, the indexer, the `local` source.
        .target(
            name: "TesseraLibrary",
            dependencies: [
                "TesseraCore"
            ]
        ),
        // Image URLs handed to clients and the proxy behind them: signing, coalescing, memory and disk caches.
        .target(
            name: "TesseraImageProxy",
            dependencies: [
                "TesseraCore",
                "TesseraImageProcessing",
                "TesseraFetcher",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Galleries: the stores' contracts, their own image copies, the change events, export.
        .target(
            name: "TesseraGalleries",
            dependencies: [
                "TesseraCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Accounts for TESSERA_AUTH=accounts: users (bcrypt), sessions, personal access tokens, login back-off;
        // the store's contract (its engines are in TesseraSQLite and TesseraPostgres).
        .target(
            name: "TesseraAccounts",
            dependencies: [
                "TesseraCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The stores on SQLite through GRDB, one folder per feature: the data folder's database, its migrations,
        // and each feature's store behind that feature's contract.
        .target(
            name: "TesseraSQLite",
            dependencies: [
                "TesseraCore",
                "TesseraDatabaseMetrics",
                "TesseraGalleries",
                "TesseraLibrary",
                "TesseraAccounts",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The stores on PostgreSQL through postgres-nio, laid out as TesseraSQLite: the shared stores for several
        // servers behind one database.
        .target(
            name: "TesseraPostgres",
            dependencies: [
                "TesseraCore",
                "TesseraDatabaseMetrics",
                "TesseraGalleries",
                "TesseraLibrary",
                "TesseraAccounts",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // `tessera migrate` (Migration/) reads a SQLite data folder's tables as they are, into this
                // engine's rows: the one place an engine knows the other.
                "TesseraSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The one place that chooses the engine: `Stores.open`.
        .target(
            name: "TesseraStores",
            dependencies: [
                "TesseraCore",
                "TesseraDatabaseMetrics",
                "TesseraSQLite",
                "TesseraPostgres",
                "TesseraImageProxy",
                "TesseraGalleries",
                "TesseraLibrary",
                "TesseraAccounts",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // `tessera backup` and `tessera restore`: a data folder in one checked file (docs/deploy.md).
        .target(
            name: "TesseraBackup",
            dependencies: [
                "TesseraCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The Hummingbird application: configuration, environment, routes.
        .target(
            name: "TesseraServer",
            dependencies: [
                "TesseraCore",
                "TesseraSources",
                "TesseraSQLite",
                "TesseraImageProxy",
                "TesseraImageProcessing",
                "TesseraFetcher",
                "TesseraLibrary",
                "TesseraGalleries",
                "TesseraPostgres",
                "TesseraStores",
                "TesseraDatabaseMetrics",
                "TesseraAccounts",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // The web app: plain HTML, CSS and JavaScript modules, served as they are.
            resources: [.copy("Web")]
        ),
        // The API's Swift client: code generated from docs/openapi.yaml (Generated/, committed) and a small
        // hand-written layer. No server module and no TesseraCore: an app links only this and the runtime.
        .target(
            name: "TesseraClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(
                    name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux, .android, .windows, .openbsd])),
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(platforms: [.linux, .android, .windows, .openbsd])),
                .product(
                    name: "OpenAPIURLSession", package: "swift-openapi-urlsession",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst])),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // The `tessera` command: parses arguments, calls library code.
        .executableTarget(
            name: "tessera",
            dependencies: [
                "TesseraBackup",
                "TesseraClient",
                "TesseraCore",
                "TesseraServer",
                "TesseraAccounts",
                "TesseraLibrary",
                "TesseraGalleries",
                "TesseraImageProcessing",
                "TesseraPostgres",
                "TesseraSQLite",
                "TesseraStores",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Local HTTP servers that speak each provider's wire format, for tests and benchmarks.
        .target(
            name: "TesseraTestSupport",
            dependencies: [
                "TesseraCore",
                "TesseraPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // A small W3C WebDriver client for headless Chromium: the browser tests and the paint benchmark drive it.
        .target(
            name: "TesseraWebDriver",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // `tessera-bench`: each benchmark next to a reference in the same run (see the README).
        .executableTarget(
            name: "TesseraBench",
            dependencies: [
                "CVips",
                "TesseraCore",
                "TesseraServer",
                "TesseraGalleries",
                "TesseraSQLite",
                "TesseraImageProcessing",
                "TesseraImageProxy",
                "TesseraLibrary",
                "TesseraPostgres",
                "TesseraStores",
                "TesseraTestSupport",
                "TesseraWebDriver",
                "TesseraAccounts",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "TesseraCoreTests", dependencies: ["TesseraCore"]),
        .testTarget(
            name: "TesseraImageProxyTests",
            dependencies: [
                "TesseraImageProxy", "TesseraCore", "TesseraSQLite",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "TesseraImageProcessingTests",
            dependencies: ["TesseraImageProcessing", "TesseraCore", "CVips", "COrcLock"]),
        .testTarget(
            name: "TesseraGalleriesTests", dependencies: ["TesseraGalleries", "TesseraSQLite", "TesseraCore"]),
        .testTarget(
            name: "TesseraFetcherTests",
            dependencies: [
                "TesseraFetcher", "TesseraTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TesseraLibraryTests",
            dependencies: ["TesseraLibrary", "TesseraSQLite", "TesseraImageProcessing", "TesseraCore"]
        ),
        .testTarget(
            name: "TesseraSourcesTests",
            dependencies: [
                "TesseraSources", "TesseraCore", "TesseraTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(name: "TesseraBackupTests", dependencies: ["TesseraBackup"]),
        .testTarget(
            name: "TesseraSQLiteTests",
            dependencies: [
                "TesseraSQLite", "TesseraCore", "TesseraDatabaseMetrics", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Every store's contract on both engines (SQLite, PostgreSQL) from one place, the engines' migrations,
        // `tessera migrate`'s copy and the database URL.
        .testTarget(
            name: "TesseraStoresTests",
            dependencies: [
                "TesseraStores", "TesseraPostgres", "TesseraSQLite", "TesseraImageProxy", "TesseraGalleries",
                "TesseraCore",
                "TesseraLibrary", "TesseraImageProcessing", "TesseraTestSupport", "TesseraAccounts",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TesseraServerTests",
            dependencies: [
                "TesseraServer", "TesseraTestSupport", "TesseraGalleries", "TesseraCore", "TesseraImageProxy",
                "TesseraFetcher",
                "TesseraSQLite",
                "TesseraPostgres",
                "TesseraStores",
                "TesseraLibrary",
                "TesseraAccounts",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "TesseraCLITests",
            dependencies: [
                "TesseraTestSupport", "TesseraCore", "TesseraGalleries", "TesseraPostgres", "TesseraSQLite",
                "TesseraStores",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // TesseraClient against the real app on loopback with stand-in providers.
        .testTarget(
            name: "TesseraClientTests",
            dependencies: [
                "TesseraClient", "TesseraServer", "TesseraTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Browser tests of the web UI: headless Chromium driven by chromedriver over W3C WebDriver.
        .testTarget(
            name: "TesseraWebTests",
            dependencies: [
                "TesseraServer", "TesseraTestSupport", "TesseraWebDriver", "TesseraCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
