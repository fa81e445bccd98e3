import Metrics
import TesseraCore

/// Per-source figures for `/metrics`: calls as the search sees them (`SearchService` reports them through
/// `SourceCallObserving`), and, from `SourceHTTP`, what the response cache answered and what went to the
/// service. Labels are the source id, error codes and HTTP statuses: a few values each.
///
/// Built from the app's own `MetricsFactory`, so several apps in one process (the tests) never mix figures.
public struct SourceMetrics: SourceCallObserving {
    private let factory: any MetricsFactory

    public init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// Counts nothing: for clients built without an app (tests of one client, benchmarks).
    public static let disabled = SourceMetrics(factory: NOOPMetricsHandler.instance)

    public func sourceCall(_ source: SourceID, took duration: Duration, failure: SourceError?) {
        let labels = [("source", source.rawValue)]
        Counter(label: "tessera_source_requests_total", dimensions: labels, factory: factory).increment()
        Metrics.Timer(label: "tessera_source_request_duration_seconds", dimensions: labels, factory: factory)
            .record(duration: duration)
        if let failure {
            Counter(
                label: "tessera_source_errors_total", dimensions: labels + [("code", failure.code)], factory: factory
            ).increment()
        }
    }

    /// A cacheable request: answered from the response cache (`hit`) or not.
    func responseCache(_ source: SourceID, hit: Bool) {
        let name = hit ? "tessera_source_response_cache_hits_total" : "tessera_source_response_cache_misses_total"
        Counter(label: name, dimensions: [("source", source.rawValue)], factory: factory).increment()
    }

    /// A request sent to the service: its HTTP status, or `error` when no answer came.
    func sent(_ source: SourceID, status: Int?) {
        let labels = [("source", source.rawValue), ("status", status.map(String.init) ?? "error")]
        Counter(label: "tessera_source_http_requests_total", dimensions: labels, factory: factory).increment()
    }

    /// A request not sent: the source's budget was spent (`budget`) or the service had asked to wait (`paused`).
    func refused(_ source: SourceID, reason: String) {
        let labels = [("source", source.rawValue), ("reason", reason)]
        Counter(label: "tessera_source_budget_refusals_total", dimensions: labels, factory: factory).increment()
    }

    /// A refused request answered from an expired cache entry instead.
    func staleAnswer(_ source: SourceID) {
        Counter(
            label: "tessera_source_stale_answers_total", dimensions: [("source", source.rawValue)], factory: factory
        ).increment()
    }

    /// The service asked Tessera to wait, and the source was paused.
    func paused(_ source: SourceID) {
        Counter(label: "tessera_source_pauses_total", dimensions: [("source", source.rawValue)], factory: factory)
            .increment()
    }
}
