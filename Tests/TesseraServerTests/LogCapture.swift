import Logging
import Synchronization

/// Keeps what is logged through `logger`, for tests that check the log says what a client is not told.
final class LogCapture: Sendable {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    private let kept = Mutex<[Entry]>([])

    var entries: [Entry] { kept.withLock { $0 } }

    /// A logger at `level` whose every line ends up in `entries`, with what `metadataProvider` adds.
    func logger(level: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil) -> Logger {
        var logger = Logger(label: "tessera-test") { _ in Handler(capture: self, metadataProvider: metadataProvider) }
        logger.logLevel = level
        return logger
    }

    fileprivate func keep(_ entry: Entry) {
        kept.withLock { $0.append(entry) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let provided = metadataProvider?.get() ?? [:]
            let all = metadata.merging(provided) { _, new in new }.merging(event.metadata ?? [:]) { _, new in new }
            capture.keep(
                Entry(level: event.level, message: "\(event.message)", metadata: all.mapValues { "\($0)" }))
        }
    }
}
