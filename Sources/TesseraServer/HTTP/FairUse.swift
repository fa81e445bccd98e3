import Foundation
import HTTPTypes
import Hummingbird
import Synchronization
import TesseraCore
import TesseraGalleries

/// A budget: `count` requests per `period` seconds, refilled evenly, at most `count` saved up.
public struct Rate: Sendable, Hashable, CustomStringConvertible {
    public var count: Int
    public var period: Double

    public init(count: Int, period: Double) {
        self.count = count
        self.period = period
    }

    public var description: String {
        let unit = [(1.0, "s"), (60.0, "min"), (3600.0, "h")].first { $0.0 == period }?.1
        return unit.map { "\(count)/\($0)" } ?? "\(count) per \(period) s"
    }
}

/// What a client tried too often, with the whole seconds after which one more will be taken.
public enum FairUseError: Error, Sendable, Hashable {
    case rateLimited(FairUse.Kind, retryAfter: Int)
    /// The client already holds this many open event streams.
    case tooManyStreams(limit: Int)
}

/// Token buckets per (client address, kind of expensive request), kept in memory for a bounded number of
/// keys. See docs/limits.md for what is counted and the defaults.
public final class FairUse: Sendable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case search
        case importing = "import"
        case export
    }

    /// Keys kept at most; past it, idle (refilled) buckets go first, then the least recently used one.
    static let maxKeys = 10_000

    private struct Key: Hashable {
        let client: [UInt8]
        let kind: Kind
    }

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let rates: [Kind: Rate]
    private let now: @Sendable () -> Double
    private let buckets = Mutex([Key: Bucket]())

    /// - Parameter now: seconds on a monotonic clock; tests pass their own.
    public init(rates: [Kind: Rate], now: (@Sendable () -> Double)? = nil) {
        self.rates = rates
        if let now {
            self.now = now
        } else {
            let start = ContinuousClock.now
            self.now = {
                let elapsed = ContinuousClock.now - start
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            }
        }
    }

    /// Takes one request of `kind` from `client`'s budget, or says how long to wait for one.
    public func take(_ kind: Kind, client: [UInt8]) throws(FairUseError) {
        guard let rate = rates[kind], rate.count > 0 else { return }
        let capacity = Double(rate.count)
        let perSecond = capacity / rate.period
        let now = now()
        let key = Key(client: client, kind: kind)
        let wait: Double? = buckets.withLock { buckets in
            if buckets[key] == nil, buckets.count >= Self.maxKeys { Self.evict(&buckets, now: now, rates: rates) }
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now - bucket.updated) * perSecond)
            bucket.updated = now
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return (1 - bucket.tokens) / perSecond
        }
        if let wait { throw .rateLimited(kind, retryAfter: max(1, Int(wait.rounded(.up)))) }
    }

    private static func evict(_ buckets: inout [Key: Bucket], now: Double, rates: [Kind: Rate]) {
        buckets = buckets.filter { key, bucket in
            guard let rate = rates[key.kind] else { return false }
            let refilled = bucket.tokens + (now - bucket.updated) * Double(rate.count) / rate.period
            return refilled < Double(rate.count)
        }
        if buckets.count >= maxKeys, let oldest = buckets.min(by: { $0.value.updated < $1.value.updated }) {
            buckets[oldest.key] = nil
        }
    }
}

/// Counts the expensive requests against their client's budget before they run: searches (`/api/search`
/// and its stream), imports and uploads (`POST /api/galleries/{id}/items` with a URL or a multipart body;
/// adding a search result is free; `POST /api/shared/{slug}/items` always) and exports. Over budget: `429` with `Retry-After`.
struct FairUseMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let fairUse: FairUse
    let streams: StreamCount
    let trustedProxies: [IPNetwork]
    /// The most a JSON item body may be, as the galleries controller takes it.
    let maxJSONBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var request = request
        let kind = try await Self.kind(of: &request, maxJSONBytes: maxJSONBytes)
        let isStream = request.method == .get && Self.isEventStream(request.uri.path)
        guard kind != nil || isStream else { return try await next(request, context) }
        let client = ClientAddress.key(of: request, peer: context.remoteAddress, trusted: trustedProxies)
        if let kind { try fairUse.take(kind, client: client) }
        guard isStream else { return try await next(request, context) }
        // The slot is held by the answer's body, so it is given back when the stream ends or the answer
        // is dropped unsent, whichever comes first.
        let slot = try streams.open(client)
        var response = try await next(request, context)
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            try await body.write(writer)
            withExtendedLifetime(slot) {}
        }
        return response
    }

    static func isEventStream(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return path == "/api/search/stream"
            || (parts.count == 5 && parts[1] == "api" && parts[2] == "galleries" && parts[4] == "events")
    }

    /// Which budget a request draws on, if any. A JSON item body is read here (it is small) to tell a URL
    /// import from adding a search result, and handed on unchanged.
    static func kind(of request: inout Request, maxJSONBytes: Int) async throws -> FairUse.Kind? {
        let path = request.uri.path.split(separator: "/", omittingEmptySubsequences: false)
        switch (request.method, path.count) {
        case (.get, _) where request.uri.path == "/api/search" || request.uri.path == "/api/search/stream":
            return .search
        case (.get, 5) where path[1] == "api" && path[2] == "galleries" && path[4] == "export":
            return .export
        case (.post, 5) where path[1] == "api" && path[2] == "shared" && path[4] == "items":
            // Through a drop link, every add is an upload or a URL: an import, on top of the link's own rate.
            return .importing
        case (.post, 5) where path[1] == "api" && path[2] == "galleries" && path[4] == "items":
            let type = request.headers[.contentType]?.lowercased() ?? ""
            if type.hasPrefix("multipart/") { return .importing }
            let buffer = try await request.boundedBody(upTo: maxJSONBytes) {
                GalleryError.tooLarge(what: "The request body", limit: maxJSONBytes)
            }
            request.body = RequestBody(buffer: buffer)
            // FastJSONDecoder: JSONDecoder read the whole item (about a tenth of an add's time) for one key.
            let probe = try? FastJSONDecoder.decode(URLProbe.self, from: Data(buffer: buffer))
            return probe?.url == nil ? nil : .importing
        default:
            return nil
        }
    }
}

/// The one field of an item body that makes it an import.
private struct URLProbe: Decodable {
    let url: String?
}

/// Open event streams per client address, at most `limit` each (`TESSERA_MAX_STREAMS_PER_CLIENT`).
public final class StreamCount: Sendable {
    let limit: Int?
    private let open = Mutex([[UInt8]: Int]())

    public init(limit: Int?) { self.limit = limit }

    /// One more stream for `client`; it counts until the returned slot is released.
    func open(_ client: [UInt8]) throws(FairUseError) -> Slot {
        guard let limit else { return Slot {} }
        let granted = open.withLock { open in
            let count = open[client, default: 0]
            guard count < limit else { return false }
            open[client] = count + 1
            return true
        }
        guard granted else { throw .tooManyStreams(limit: limit) }
        return Slot { [self] in
            self.open.withLock { open in
                let count = open[client, default: 1] - 1
                open[client] = count > 0 ? count : nil
            }
        }
    }

    final class Slot: Sendable {
        private let release: @Sendable () -> Void
        init(release: @escaping @Sendable () -> Void) { self.release = release }
        deinit { release() }
    }
}
