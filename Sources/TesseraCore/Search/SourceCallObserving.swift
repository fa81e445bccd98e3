/// Told of every call `SearchService` makes to a source (a section of a search, or an item), for metrics.
///
/// Core stays Foundation-only, so it names this ability instead of importing a metrics API; the live
/// observer is `TesseraSources.SourceMetrics`, which turns the calls into counters and a latency histogram.
public protocol SourceCallObserving: Sendable {
    /// `source` answered (`failure == nil`) or failed after `duration`, time-outs included.
    func sourceCall(_ source: SourceID, took duration: Duration, failure: SourceError?)
}

/// Observes nothing: the default, for the CLI's one-off searches and for tests that do not read metrics.
public struct NoSourceCallObserver: SourceCallObserving {
    public init() {}
    public func sourceCall(_ source: SourceID, took duration: Duration, failure: SourceError?) {}
}
