import Metrics
import TesseraCore

/// The fetcher's figures for `/metrics`: every fetch by result (`ok`, or the `FetchError` code, which says
/// why it was refused or failed), and the bytes and time of those that worked.
struct FetchMetrics: Sendable {
    private let factory: any MetricsFactory
    private let succeeded: Counter
    private let bytes: Counter
    private let time: Metrics.Timer

    init(factory: any MetricsFactory) {
        self.factory = factory
        succeeded = Counter(label: Self.fetches, dimensions: [("result", "ok")], factory: factory)
        bytes = Counter(label: "tessera_image_fetch_bytes_total", factory: factory)
        time = Metrics.Timer(label: "tessera_image_fetch_duration_seconds", factory: factory)
    }

    private static let fetches = "tessera_image_fetches_total"

    func fetched(bytes count: Int, took duration: Duration) {
        succeeded.increment()
        bytes.increment(by: count)
        time.record(duration: duration)
    }

    func failed(_ error: FetchError) {
        Counter(label: Self.fetches, dimensions: [("result", error.code)], factory: factory).increment()
    }
}
