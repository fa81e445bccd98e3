import ArgumentParser
import Foundation
import Hummingbird
import TesseraServer

/// `tessera serve`: the web app and JSON API until SIGINT or SIGTERM, then a graceful shutdown.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the web app and JSON API.")

    @Option(
        help: ArgumentHelp(
            "Address to bind. Default 127.0.0.1; env TESSERA_HOST. Anything but loopback needs --auth token or accounts.",
            valueName: "address"))
    var host: String?

    @Option(
        help: ArgumentHelp("Port to listen on (0 picks a free one). Default 8080; env TESSERA_PORT.", valueName: "port")
    )
    var port: String?

    @Option(
        name: .customLong("library"),
        help: ArgumentHelp(
            "A folder of your own photos (repeatable); env TESSERA_LIBRARY (colon-separated).", valueName: "dir"))
    var libraries: [String] = []

    @Option(
        name: .customLong("database-url"),
        help: ArgumentHelp(
            "PostgreSQL shared by several servers, postgres://user:password@host:5432/db?sslmode=…;"
                + " env TESSERA_DATABASE_URL. Default: SQLite in the data folder.", valueName: "url"))
    var databaseURL: String?

    @Option(
        help: ArgumentHelp(
            "Who may use it: none (loopback only), token (TESSERA_TOKEN) or accounts (tessera user add)."
                + " Default: token when TESSERA_TOKEN is set, else none; env TESSERA_AUTH.", valueName: "mode"))
    var auth: String?

    @OptionGroup var common: CommonOptions

    func run() async throws {
        var configuration = try Exit.configuration(common)
        if let host { configuration.host = host }
        do throws(ConfigurationError) {
            if let port { configuration.port = try AppConfiguration.parsePort(port) }
            if let databaseURL { configuration.databaseURL = try AppConfiguration.parseDatabaseURL(databaseURL) }
            if let auth { configuration.authSetting = try AuthMode.parse(auth) }
            try configuration.validateForServing()
        } catch {
            throw Exit.badInput(error.description)
        }
        if !libraries.isEmpty { configuration.libraries = libraries }
        let logger = Terminal.bootstrapLogging(level: configuration.logLevel, format: configuration.logFormat)
        let environment: AppEnvironment
        do {
            environment = try await AppEnvironment.live(configuration, logger: logger)
        } catch {
            throw Exit.failure("Tessera could not start: \(error)")
        }
        let host = configuration.host
        logger.info("access", metadata: ["auth": "\(configuration.auth.rawValue)"])
        if configuration.auth == .accounts {
            // Galleries made before accounts (or by the CLI on the data folder) belong to the first admin.
            do {
                let adopted = try await environment.adoptOwnerlessGalleries()
                if adopted.count > 0, let admin = adopted.admin {
                    logger.notice(
                        "galleries without an owner given to the first admin",
                        metadata: ["count": "\(adopted.count)", "admin": "\(admin.name)"])
                }
            } catch {
                throw Exit.failure("Tessera could not start: \(error)")
            }
        }
        let app = buildApplication(environment) { port in
            Terminal.out("Tessera is running on http://\(host.contains(":") ? "[\(host)]" : host):\(port)\n")
        }
        do {
            try await app.runService()
        } catch {
            throw Exit.failure("Tessera stopped serving on \(host) port \(configuration.port): \(error)")
        }
    }
}
