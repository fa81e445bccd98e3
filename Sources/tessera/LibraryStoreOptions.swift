import ArgumentParser
import Foundation
import Logging
import TesseraLibrary
import TesseraServer
import TesseraStores

/// `--database-url` for the library commands: the index several servers share on PostgreSQL instead of the data
/// folder's own.
struct SharedIndexOptions: ParsableArguments {
    @Option(
        name: .customLong("database-url"),
        help: ArgumentHelp(
            "The servers' PostgreSQL, postgres://user:password@host:5432/db?sslmode=…, for the index they share;"
                + " env TESSERA_DATABASE_URL. Default: the data folder's own index.", valueName: "url"))
    var databaseURL: String?

    /// The settings, with `--database-url` over `TESSERA_DATABASE_URL`.
    func configuration(_ common: CommonOptions) throws -> AppConfiguration {
        var configuration = try Exit.configuration(common)
        if let databaseURL {
            do throws(ConfigurationError) {
                configuration.databaseURL = try AppConfiguration.parseDatabaseURL(databaseURL)
            } catch {
                throw Exit.badInput(error.description)
            }
        }
        return configuration
    }
}

/// What both subcommands share: the store.
enum LibraryCommand {
    /// The data folder's SQLite index, or with a database URL the shared one (migrated first, as `serve` does).
    static func openStore(_ configuration: AppConfiguration) async throws -> any LibraryStoring {
        let logger = Logger(label: "tessera.library", factory: { _ in SwiftLogNoOpLogHandler() })
        do {
            return try await Stores.library(
                dataDirectory: configuration.dataDirectory, databaseURL: configuration.databaseURL,
                poolSize: configuration.databasePool, logger: logger)
        } catch {
            throw Exit.failure((error as? LibraryError)?.message ?? "\(error)")
        }
    }
}
