// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Tessera",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tessera", targets: ["tessera"]),
        .executable(name: "tessera-bench", targets: ["TesseraBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
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
            ]
        ),
        // SQLite through GRDB: migrations and the stores built on them.
        .target(
            name: "TesseraStorage",
            dependencies: [
                "TesseraCore",
                "TesseraSources",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Image URLs handed to clients: signing now, the proxy and thumbnails later.
        .target(
            name: "TesseraImages",
            dependencies: [
                "TesseraCore",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The Hummingbird application: configuration, environment, routes.
        .target(
            name: "TesseraServer",
            dependencies: [
                "TesseraCore",
                "TesseraSources",
                "TesseraStorage",
                "TesseraImages",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The `tessera` command: parses arguments, calls library code.
        .executableTarget(
            name: "tessera",
            dependencies: [
                "TesseraCore",
                "TesseraServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Local HTTP servers that speak each provider's wire format, for tests and benchmarks.
        .target(
            name: "TesseraTestSupport",
            dependencies: [
                "TesseraCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "TesseraBench",
            dependencies: [
                "TesseraServer",
                "TesseraTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "TesseraCoreTests", dependencies: ["TesseraCore"]),
        .testTarget(name: "TesseraImagesTests", dependencies: ["TesseraImages", "TesseraCore"]),
        .testTarget(
            name: "TesseraSourcesTests",
            dependencies: ["TesseraSources", "TesseraStorage", "TesseraTestSupport"]
        ),
        .testTarget(
            name: "TesseraServerTests",
            dependencies: [
                "TesseraServer", "TesseraTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "TesseraCLITests",
            dependencies: [
                "TesseraTestSupport", "TesseraCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
    ]
)
