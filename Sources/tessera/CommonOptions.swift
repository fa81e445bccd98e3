import ArgumentParser
import Foundation
import Logging
import TesseraServer

/// Flags shared by every command that touches sources or the data folder. Flags win over the environment.
struct CommonOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Data folder (database, caches). Default: ~/.local/share/tessera; env TESSERA_DATA.", valueName: "dir"))
    var data: String?

    @Option(
        name: .customLong("source-timeout"),
        help: ArgumentHelp("Seconds each source may take. Default 8; env TESSERA_SOURCE_TIMEOUT.", valueName: "seconds")
    )
    var sourceTimeout: String?

    /// Defaults, then the environment, then these flags.
    func configuration() throws -> AppConfiguration {
        do {
            var configuration = try AppConfiguration(environment: ProcessInfo.processInfo.environment)
            if let data { configuration.dataDirectory = URL(fileURLWithPath: data) }
            if let sourceTimeout { configuration.sourceTimeout = try AppConfiguration.parseTimeout(sourceTimeout) }
            return configuration
        } catch {
            throw ValidationError(error.description)
        }
    }
}

/// Writes to the standard streams through `FileHandle` (the C `stdout` global is not concurrency-safe).
enum Terminal {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Log lines go to standard error, so standard output stays clean for `--json`.
    /// Text or JSON lines, as `TESSERA_LOG_FORMAT` says; every line a request causes carries its id.
    static func bootstrapLogging(level: Logger.Level, format: LogFormat) -> Logger {
        LogBootstrap.bootstrap(format: format, level: level)
    }
}
