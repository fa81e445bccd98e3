import HTTPTypes
import Hummingbird
import Metrics
import Synchronization

/// HTTP requests by route template, method and status, with a latency histogram by route and method:
/// `tessera_http_requests_total` and `tessera_http_request_duration_seconds`.
///
/// Labels stay few: the route is the router's template (`/api/galleries/{id}`), never the raw path, and
/// anything the router did not match is `unmatched`; methods outside the usual set are `other`. Each
/// series' counter and timer are made once and kept here, so a request costs one locked lookup and two
/// atomic adds. Answers of the image fast path (`ImageHitHandler`) are counted through `fastPathAnswer`,
/// one atomic add on a counter made up front; they take microseconds and are not timed.
final class HTTPMetrics: Sendable {
    private struct Key: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private struct TimerKey: Hashable {
        let route: String
        let method: String
    }

    static let unmatched = "unmatched"
    private static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    private let factory: any MetricsFactory
    private let counters = Mutex([Key: Counter]())
    private let timers = Mutex([TimerKey: Metrics.Timer]())
    /// The fast path's four series on the image route: GET 200, GET 304, HEAD 200, HEAD 304.
    private let fastPath: [Counter]

    /// - Parameter imageRoute: the template of the route whose memory-cache hits `ImageHitHandler` answers.
    init(factory: any MetricsFactory, imageRoute: String) {
        self.factory = factory
        fastPath = [("GET", 200), ("GET", 304), ("HEAD", 200), ("HEAD", 304)].map { method, status in
            Self.counter(Key(route: imageRoute, method: method, status: status), factory: factory)
        }
    }

    /// One request the router answered.
    func record(route: String?, method: HTTPRequest.Method, status: Int, duration: Duration) {
        let route = route.flatMap { $0 == "NotFound" ? nil : $0 } ?? Self.unmatched
        let method = Self.methods.contains(method.rawValue) ? method.rawValue : "other"
        let key = Key(route: route, method: method, status: status)
        let counter = counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Self.counter(key, factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
        let timerKey = TimerKey(route: route, method: method)
        let timer = timers.withLock { timers in
            if let timer = timers[timerKey] { return timer }
            let timer = Metrics.Timer(
                label: "tessera_http_request_duration_seconds", dimensions: [("route", route), ("method", method)],
                factory: factory)
            timers[timerKey] = timer
            return timer
        }
        timer.record(duration: duration)
    }

    /// One answer of the image fast path: `head` is false for `GET`; `notModified` for `304`.
    func fastPathAnswer(head: Bool, notModified: Bool) {
        fastPath[(head ? 2 : 0) + (notModified ? 1 : 0)].increment()
    }

    private static func counter(_ key: Key, factory: any MetricsFactory) -> Counter {
        Counter(
            label: "tessera_http_requests_total",
            dimensions: [("route", key.route), ("method", key.method), ("status", String(key.status))],
            factory: factory)
    }
}

/// Times and counts every request the router answers (see `HTTPMetrics`). First in the router, so the time
/// covers all the other middleware; it ends when the answer's head is ready (a streamed body may go on).
struct HTTPMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: HTTPMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.record(
                route: context.endpointPath, method: request.method, status: response.status.code,
                duration: ContinuousClock.now - started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.record(
                route: context.endpointPath, method: request.method, status: status,
                duration: ContinuousClock.now - started)
            throw error
        }
    }
}
