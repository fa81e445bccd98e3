import Metrics
import TesseraCore

/// The image proxy's figures for `/metrics`: what each cache answered, the bytes they hold, and the
/// thumbnails libvips made. A memory hit is counted with one relaxed atomic add on counters made once
/// here, cheap enough for the connection's fast path (`ImageHitHandler`).
struct ImageProxyMetrics: Sendable {
    struct Cache: Sendable {
        let hits: Counter
        let misses: Counter
        let bytes: Gauge

        init(_ name: String, factory: any MetricsFactory) {
            let labels = [("cache", name)]
            hits = Counter(label: "tessera_image_cache_hits_total", dimensions: labels, factory: factory)
            misses = Counter(label: "tessera_image_cache_misses_total", dimensions: labels, factory: factory)
            bytes = Gauge(label: "tessera_image_cache_bytes", dimensions: labels, factory: factory)
        }
    }

    let memory: Cache
    let disk: Cache
    private let thumbnails: [ImageVariant: (made: Counter, time: Metrics.Timer)]

    init(factory: any MetricsFactory) {
        memory = Cache("memory", factory: factory)
        disk = Cache("disk", factory: factory)
        var thumbnails: [ImageVariant: (made: Counter, time: Metrics.Timer)] = [:]
        for variant in ImageVariant.allCases where variant.maxDimension != nil {
            let labels = [("variant", variant.rawValue)]
            thumbnails[variant] = (
                Counter(label: "tessera_image_thumbnails_total", dimensions: labels, factory: factory),
                Metrics.Timer(label: "tessera_image_thumbnail_duration_seconds", dimensions: labels, factory: factory)
            )
        }
        self.thumbnails = thumbnails
    }

    /// libvips made a thumbnail or preview in `duration`.
    func thumbnail(_ variant: ImageVariant, took duration: Duration) {
        guard let metrics = thumbnails[variant] else { return }
        metrics.made.increment()
        metrics.time.record(duration: duration)
    }
}
