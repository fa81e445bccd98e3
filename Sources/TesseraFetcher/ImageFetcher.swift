import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore
import Synchronization
import TesseraCore

/// What a fetch brought back.
public struct FetchedBody: Sendable {
    /// The URL the body came from, after redirects.
    public var finalURL: String
    /// The `Content-Type` the host sent, as sent.
    public var contentType: String?
    public var data: Data

    public init(finalURL: String, contentType: String?, data: Data) {
        self.finalURL = finalURL
        self.contentType = contentType
        self.data = data
    }
}

/// Fetches images from URLs that came from outside, without becoming a door into the user's network.
///
/// Only http(s); every hop's host is resolved once by the fetcher and each of its addresses checked against
/// `AddressPolicy` (unless its origin is trusted or the policy allows private networks), and the connection
/// goes to the checked address. Redirects are followed here, hop by hop, each checked from scratch. One
/// deadline covers the whole fetch; the body is capped while it streams in. See `docs/fetcher.md`.
///
/// Call `shutdown()` when done: the fetcher holds HTTP clients (and their idle connections).
public final class ImageFetcher: Sendable {
    public let policy: FetchPolicy
    let trustedOrigins: Set<String>
    let logger: Logger
    let resolver: any HostResolver
    let clients: ClientPool
    let metrics: FetchMetrics

    static let userAgent = "Tessera/0.1 (image proxy)"
    static let accept = "image/avif,image/webp,image/*;q=0.8"

    /// - Parameter metrics: where fetches are counted by result, with their bytes and time.
    public convenience init(
        policy: FetchPolicy = FetchPolicy(), logger: Logger = Logger(label: "tessera.fetcher"),
        metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) {
        self.init(policy: policy, logger: logger, resolver: SystemResolver(), metrics: metrics)
    }

    init(
        policy: FetchPolicy, logger: Logger, resolver: any HostResolver,
        metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) {
        self.policy = policy
        self.trustedOrigins = Set(policy.trustedOrigins.flatMap(FetchPolicy.normalizedOrigins))
        self.logger = logger
        self.resolver = resolver
        self.clients = ClientPool(connectTimeout: policy.connectTimeout, logger: logger)
        self.metrics = FetchMetrics(factory: metrics)
    }

    /// Fetches `url`, following redirects, and returns the body.
    ///
    /// - Parameters:
    ///   - accept: The `Accept` header; images by default (the media proxy asks for audio and video).
    ///   - maxBytes: This fetch's cap instead of the policy's (the media proxy has its own setting).
    ///   - prefixLength: How many first bytes `validatePrefix` sees (fewer when the body is shorter).
    ///   - validatePrefix: Called once with the first bytes; returning false stops the download with
    ///     `.notAnImage`. The image proxy passes its magic-number sniffer here.
    public func fetch(
        _ url: String, accept: String? = nil, maxBytes: Int? = nil, prefixLength: Int = 32,
        validatePrefix: (@Sendable ([UInt8]) -> Bool)? = nil
    ) async throws(FetchError) -> FetchedBody {
        let started = ContinuousClock.now
        do {
            let body = try await guardedFetch(
                url, accept: accept ?? Self.accept, maxBytes: maxBytes ?? policy.maxBytes,
                prefixLength: prefixLength, validatePrefix: validatePrefix)
            metrics.fetched(bytes: body.data.count, took: ContinuousClock.now - started)
            return body
        } catch {
            metrics.failed(error)
            throw error
        }
    }

    private func guardedFetch(
        _ url: String, accept: String, maxBytes: Int, prefixLength: Int,
        validatePrefix: (@Sendable ([UInt8]) -> Bool)?
    ) async throws(FetchError) -> FetchedBody {
        let start = try TargetURL(parsing: url)
        let current = CurrentHost(host: start.hostForURL)
        let deadline = ContinuousClock.now + policy.totalTimeout
        let context = FetchContext(
            deadline: .now() + TimeAmount(policy.totalTimeout), accept: accept, maxBytes: maxBytes,
            prefixLength: max(1, prefixLength), validatePrefix: validatePrefix)
        do {
            return try await withDeadline(deadline, timedOut: { FetchError.timeout(host: current.host) }) {
                try await self.follow(start, context: context, current: current)
            }
        } catch let error as FetchError {
            throw error
        } catch {
            throw .connectionFailed(host: current.host, detail: "cancelled")
        }
    }

    /// Shuts the HTTP clients down. Fetches still running fail.
    public func shutdown() async throws {
        await clients.shutdown()
    }

    // MARK: - Hops

    /// The host of the hop in progress, for the timeout message.
    final class CurrentHost: Sendable {
        private let current: Mutex<String>
        init(host: String) { current = Mutex(host) }
        var host: String {
            get { current.withLock { $0 } }
            set { current.withLock { $0 = newValue } }
        }
    }

    /// What every hop of one fetch shares.
    struct FetchContext: Sendable {
        /// The same instant as the fetch's deadline, for AsyncHTTPClient's own.
        let deadline: NIODeadline
        let accept: String
        /// The cap for this fetch: the policy's, or the caller's own.
        let maxBytes: Int
        let prefixLength: Int
        let validatePrefix: (@Sendable ([UInt8]) -> Bool)?
    }

    enum HopOutcome: Sendable {
        case body(FetchedBody)
        case redirect(TargetURL)
    }

    private func follow(_ start: TargetURL, context: FetchContext, current: CurrentHost) async throws(FetchError)
        -> FetchedBody
    {
        var target = start
        var redirects = 0
        while true {
            current.host = target.hostForURL
            switch try await hop(target, context: context) {
            case .body(let body):
                return body
            case .redirect(let next):
                redirects += 1
                guard redirects <= policy.maxRedirects else { throw .tooManyRedirects(limit: policy.maxRedirects) }
                logger.debug(
                    "following redirect",
                    metadata: ["from": "\(target.hostForURL)", "to": "\(next.hostForURL)", "hop": "\(redirects)"])
                target = next
            }
        }
    }

    /// One request: resolve, check, connect to a checked address (the next one if a connection fails).
    private func hop(_ target: TargetURL, context: FetchContext) async throws(FetchError) -> HopOutcome {
        let addresses = try await resolver.addresses(of: target.host)
        if !policy.allowPrivateNetworks, !trustedOrigins.contains(target.origin) {
            for address in addresses {
                if let reason = AddressPolicy.refusal(for: address) {
                    logger.debug(
                        "refused image host",
                        metadata: ["host": "\(target.hostForURL)", "address": "\(address)", "reason": "\(reason)"])
                    throw .refusedAddress(host: target.hostForURL, address: address.description, reason: reason)
                }
            }
        }
        var lastFailure: FetchError?
        for address in addresses where !Task.isCancelled {
            let key = ClientPool.Key(host: target.host, address: address)
            let exchange = try await clients.withClient(key) { client throws(FetchError) in
                try await self.exchange(target, client: client, context: context)
            }
            switch exchange {
            case .done(let outcome):
                return outcome
            case .notConnected(let error):
                logger.debug(
                    "connection failed", metadata: ["host": "\(target.hostForURL)", "address": "\(address)"])
                lastFailure = error
            }
        }
        throw lastFailure ?? .unresolvable(host: target.hostForURL)
    }
}
