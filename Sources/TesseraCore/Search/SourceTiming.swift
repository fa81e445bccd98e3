import Synchronization

/// How long a section spent waiting on its service, as opposed to Tessera's own work.
///
/// `SearchService` sets a recorder for each section's task; the HTTP layer adds the time of every request
/// it makes under it. `/api/search` reports the slowest section's figure in `Server-Timing`, so what the
/// server itself adds can be measured exactly.
public enum SourceTiming {
    @TaskLocal public static var recorder: Recorder?

    public final class Recorder: Sendable {
        private let total = Mutex(Duration.zero)

        public init() {}

        public func add(_ duration: Duration) {
            total.withLock { $0 += duration }
        }

        public var elapsed: Duration { total.withLock { $0 } }
    }
}
