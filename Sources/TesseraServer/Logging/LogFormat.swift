import Logging
import TesseraCore

/// How log lines are written to standard error (`TESSERA_LOG_FORMAT`).
public enum LogFormat: String, Sendable, Hashable, CaseIterable {
    /// swift-log's human-readable line, the default.
    case text
    /// One JSON object per line, for log collectors (see `JSONLogHandler`).
    case json
}

extension Logger.MetadataProvider {
    /// Adds `request_id` to every line logged while a request is being answered (see `RequestID`).
    public static let requestID = Logger.MetadataProvider {
        guard let id = RequestID.current else { return [:] }
        return ["request_id": .string(id)]
    }
}

/// Installs the process-wide log handler: once, at start, in the executable.
public enum LogBootstrap {
    /// Bootstraps swift-log with `format` at `level` on standard error, with `request_id` on every line
    /// a request causes; returns the app's logger.
    public static func bootstrap(format: LogFormat, level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap(
            { label, provider in
                switch format {
                case .text:
                    var handler = StreamLogHandler.standardError(label: label, metadataProvider: provider)
                    handler.logLevel = level
                    return handler
                case .json:
                    var handler = JSONLogHandler.standardError(label: label, metadataProvider: provider)
                    handler.logLevel = level
                    return handler
                }
            }, metadataProvider: .requestID)
        var logger = Logger(label: "tessera")
        logger.logLevel = level
        return logger
    }
}
