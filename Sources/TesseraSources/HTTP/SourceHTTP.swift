import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import TesseraCore

/// What every source client shares: the one pooled HTTP client, the response cache, the request budgets, the
/// clock.
public struct SourceHTTP: Sendable {
    /// A raw answer, before the client interprets it in its service's terms.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: Data

        public func header(_ name: String) -> String? {
            headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
        }

        /// The body as text for error messages, cut short.
        public var bodyText: String {
            String(decoding: body.prefix(500), as: UTF8.self).trimmingWhitespace
        }
    }

    /// Largest body read from a service's API: generous for JSON, small enough to bound memory.
    static let maxBodyBytes = 8 * 1024 * 1024

    let client: HTTPClient
    let cache: (any ResponseCaching)?
    let requestTimeout: Duration
    let userAgent: String
    let now: @Sendable () -> Date
    let logger: Logger
    let metrics: SourceMetrics
    /// `nil`: no budgets and no pauses (tests of one client, benchmarks).
    let budgets: SourceBudgets?

    public init(
        client: HTTPClient, cache: (any ResponseCaching)?, requestTimeout: Duration = .seconds(8),
        userAgent: String = "Tessera/0.1 (self-hosted media search)", now: @escaping @Sendable () -> Date = Date.init,
        logger: Logger = Logger(label: "tessera.sources"), metrics: SourceMetrics = .disabled,
        budgets: SourceBudgets? = nil
    ) {
        self.client = client
        self.cache = cache
        self.requestTimeout = requestTimeout
        self.userAgent = userAgent
        self.now = now
        self.logger = logger
        self.metrics = metrics
        self.budgets = budgets
    }

    /// GETs `url`, hands the answer to `interpret`, and caches the body for `ttl` when `interpret`
    /// accepted it. A cached body is interpreted the same way, so a bad entry is never served twice.
    ///
    /// A request the cache cannot answer is counted against the source's budget before it is sent. When the
    /// budget is spent or the service asked to wait, an answer up to one `ttl` past its expiry is served
    /// instead, else the call fails with `rate_limited`. A 429, a `Retry-After` on an error, or any answer the
    /// client reads as throttling pauses the source (docs/sources.md, "Request budgets").
    ///
    /// - Parameter redacting: query parameters (API keys) kept out of the cache key and the logs.
    public func get<T: Sendable>(
        _ url: URL, source: SourceID, ttl: Duration?, redacting secrets: Set<String> = [],
        headers extraHeaders: [(String, String)] = [],
        interpret: (Response) throws(SourceError) -> T
    ) async throws(SourceError) -> T {
        let key = Self.redacted(url, removing: secrets)
        if let ttl, ttl > .zero, let cache {
            if let body = await cache.body(for: key, now: now()) {
                do {
                    let value = try interpret(Response(status: 200, headers: [], body: body))
                    logger.debug("cache hit", metadata: ["source": "\(source.rawValue)", "url": "\(key)"])
                    metrics.responseCache(source, hit: true)
                    return value
                } catch {
                    logger.warning("dropping unreadable cached answer", metadata: ["url": "\(key)"])
                }
            }
            metrics.responseCache(source, hit: false)
        }
        if let refusal = await takeBudget(source) {
            if let value = await stale(key, source: source, ttl: ttl, interpret: interpret) { return value }
            throw refusal
        }
        let response = try await fetch(url, source: source, loggedAs: key, headers: extraHeaders)
        let value: T
        do {
            value = try interpret(response)
        } catch {
            // The client's reading of its service's throttling (a body, a 403, an error code) or, failing
            // that, a 429 or a `Retry-After` on any error: the source is left alone until then.
            let headerWait = response.status >= 400 ? response.retryAfterSeconds : nil
            if case .rateLimited(_, let retryAfter) = error {
                await pause(source, seconds: retryAfter ?? headerWait)
                if let value = await stale(key, source: source, ttl: ttl, interpret: interpret) { return value }
            } else if response.status == 429 || headerWait != nil {
                await pause(source, seconds: headerWait)
            }
            throw error
        }
        if let ttl, ttl > .zero, let cache, response.status == 200 {
            await cache.store(response.body, for: key, source: source, expiresAt: now().addingTimeInterval(ttl.seconds))
        }
        return value
    }

    /// The cached answer for `key` if it expired less than one `ttl` ago (or has not), for a source that may
    /// not be asked now: an older answer beats none (docs/sources.md, "Request budgets").
    private func stale<T: Sendable>(
        _ key: String, source: SourceID, ttl: Duration?, interpret: (Response) throws(SourceError) -> T
    ) async -> T? {
        guard let ttl, ttl > .zero, let cache, let body = await cache.body(for: key, now: now() - ttl.seconds),
            let value = try? interpret(Response(status: 200, headers: [], body: body))
        else { return nil }
        logger.info("stale cached answer served", metadata: ["source": "\(source.rawValue)", "url": "\(key)"])
        metrics.staleAnswer(source)
        return value
    }

    private func fetch(
        _ url: URL, source: SourceID, loggedAs key: String, headers extraHeaders: [(String, String)]
    ) async throws(SourceError) -> Response {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept", value: "application/json")
        for (name, value) in extraHeaders { request.headers.add(name: name, value: value) }
        let started = ContinuousClock.now
        var answered = false
        do {
            let response = try await client.execute(request, timeout: TimeAmount(requestTimeout))
            answered = true
            metrics.sent(source, status: Int(response.status.code))
            let body = try await response.body.collect(upTo: Self.maxBodyBytes)
            SourceTiming.recorder?.add(ContinuousClock.now - started)
            logger.debug(
                "fetched",
                metadata: [
                    "source": "\(source.rawValue)", "url": "\(key)", "status": "\(response.status.code)",
                    "ms": "\(Int((ContinuousClock.now - started).milliseconds.rounded()))",
                ])
            return Response(
                status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                body: Data(body.readableBytesView))
        } catch {
            if !answered { metrics.sent(source, status: nil) }
            let mapped = Self.map(error, source: source, timeout: requestTimeout)
            logger.info(
                "request failed",
                metadata: ["source": "\(source.rawValue)", "url": "\(key)", "error": "\(String(describing: error))"])
            throw mapped
        }
    }

    static func map(_ error: any Error, source: SourceID, timeout: Duration) -> SourceError {
        if let error = error as? SourceError { return error }
        if error is CancellationError { return .timeout(source, seconds: timeout.seconds) }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .cancelled, .writeTimeout:
                return .timeout(source, seconds: timeout.seconds)
            default:
                return .unreachable(source, detail: String(describing: error))
            }
        }
        if let error = error as? NIOTooManyBytesError {
            return .badResponse(source, detail: "the answer is larger than \(error.maxBytes ?? maxBodyBytes) bytes")
        }
        return .unreachable(source, detail: String(describing: error))
    }

    /// The URL as a cache key and log line: secret query parameters removed.
    static func redacted(_ url: URL, removing secrets: Set<String>) -> String {
        guard !secrets.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let items = components.percentEncodedQueryItems
        else { return url.absoluteString }
        components.percentEncodedQueryItems = items.filter { !secrets.contains($0.name) }
        return components.string ?? url.absoluteString
    }
}

extension HTTPClient.Configuration.ConnectionPool {
    /// The pool the sources share. AsyncHTTPClient's default retries a failed connection with backoff and
    /// fails the waiting request only when the connect timeout runs out, so a refused connection or a failed
    /// DNS lookup (offline, a service down) took the whole 5 s to show. Sources fail at once instead: the
    /// search shows that section as unreachable and the person may try again (docs/web.md, "Failures").
    public static var sources: Self {
        var pool = Self(idleTimeout: .seconds(60))
        pool.retryConnectionEstablishment = false
        return pool
    }
}

extension SourceHTTP.Response {
    /// The failures every service signals the same way: 429 (with `Retry-After`) and 5xx.
    public func commonFailure(_ source: SourceID) -> SourceError? {
        switch status {
        case 429:
            return .rateLimited(source, retryAfter: retryAfterSeconds)
        case 500...599:
            return .serviceError(source, status: status, detail: nil)
        default:
            return nil
        }
    }

    /// `Retry-After` in seconds (the delta form; an HTTP date is turned into seconds from now), at most a day
    /// (`ServiceNumbers.longestWait`): the figure is the service's, and every wait shown is computed from it.
    public var retryAfterSeconds: Int? {
        guard let value = header("Retry-After")?.trimmingWhitespace else { return nil }
        if let seconds = Int(value) { return ServiceNumbers.wait(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        let seconds = min(max(0, date.timeIntervalSinceNow.rounded(.up)), Double(ServiceNumbers.longestWait))
        return seconds.isFinite ? Int(seconds) : nil
    }

    /// Decodes the body as `T`, turning any decoding failure into `.badResponse` with the path that failed.
    /// `FastJSONDecoder`: `JSONDecoder`'s result at a third of its time, on the critical path of every search.
    public func decode<T: Decodable>(_ type: T.Type, source: SourceID) throws(SourceError) -> T {
        do {
            return try FastJSONDecoder.decode(T.self, from: body)
        } catch let error as DecodingError {
            throw .badResponse(source, detail: Self.describe(error))
        } catch {
            throw .badResponse(source, detail: String(describing: error))
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }
}
