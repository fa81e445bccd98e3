import ArgumentParser
import Foundation
import Logging
import TesseraLibrary
import TesseraPostgres
import TesseraServer

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
        if let url = configuration.databaseURL {
            let logger = Logger(label: "tessera.library", factory: { _ in SwiftLogNoOpLogHandler() })
            do {
                let database = try await PostgresAppDatabase.open(
                    url, poolSize: configuration.databasePool, logger: logger)
                return PostgresLibraryStore(database: database, logger: logger)
            } catch {
                throw Exit.failure("\(error)")
            }
        }
        do {
            return try LibraryStore.open(dataDirectory: configuration.dataDirectory)
        } catch {
            throw Exit.failure(error.message)
        }
    }
}
