import AsyncHTTPClient
import Logging
import NIOCore
import NIOPosix
import Synchronization
import TesseraCore

/// A small LRU of HTTP clients, one per (host, checked address), so connections are reused while DNS keeps
/// giving the same answer.
///
/// Each client pins its one host to its one address with `dnsOverride` (TLS still verifies the host name)
/// and never follows redirects or retries connections on its own. An evicted client still in use is shut
/// down when its last fetch ends.
final class ClientPool: Sendable {
    struct Key: Hashable, Sendable {
        let host: String
        let address: IPAddress
    }

    private struct Entry {
        let client: HTTPClient
        var users = 0
        var lastUse: UInt64 = 0
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Evicted clients still in use, by identity.
        var retiring: [ObjectIdentifier: Entry] = [:]
        var clock: UInt64 = 0
        var isShutDown = false
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let connectTimeout: Duration
    private let logger: Logger

    init(capacity: Int = 32, connectTimeout: Duration, logger: Logger) {
        self.capacity = max(1, capacity)
        self.connectTimeout = connectTimeout
        self.logger = logger
    }

    deinit {
        // Safety net for a fetcher dropped without `shutdown()`: AsyncHTTPClient traps on clients that are
        // deallocated while running.
        let clients = state.withLock { state in
            state.entries.values.map(\.client) + state.retiring.values.map(\.client)
        }
        guard !clients.isEmpty else { return }
        logger.warning("ImageFetcher was not shut down; shutting its HTTP clients down now")
        for client in clients { Task { try? await client.shutdown() } }
    }

    /// Runs `body` with the client for `key`, made if needed.
    func withClient<T: Sendable>(
        _ key: Key, _ body: (HTTPClient) async throws(FetchError) -> T
    ) async throws(FetchError) -> T {
        let (client, evicted) = try lease(key)
        await shutDown(evicted)
        let result: Result<T, FetchError>
        do throws(FetchError) {
            result = .success(try await body(client))
        } catch {
            result = .failure(error)
        }
        await shutDown(release(key, client))
        return try result.get()
    }

    /// Shuts every client down; fetches still running fail.
    func shutdown() async {
        let clients = state.withLock { state in
            state.isShutDown = true
            defer {
                state.entries.removeAll()
                state.retiring.removeAll()
            }
            return state.entries.values.map(\.client) + state.retiring.values.map(\.client)
        }
        await shutDown(clients)
    }

    var count: Int { state.withLock { $0.entries.count } }

    // MARK: - Leasing

    private func lease(_ key: Key) throws(FetchError) -> (HTTPClient, evicted: [HTTPClient]) {
        let leased = state.withLock { state -> (HTTPClient, [HTTPClient])? in
            guard !state.isShutDown else { return nil }
            state.clock += 1
            if var entry = state.entries[key] {
                entry.users += 1
                entry.lastUse = state.clock
                state.entries[key] = entry
                return (entry.client, [])
            }
            var evicted: [HTTPClient] = []
            while state.entries.count >= capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.entries[oldest.key] = nil
                if oldest.value.users == 0 {
                    evicted.append(oldest.value.client)
                } else {
                    state.retiring[ObjectIdentifier(oldest.value.client)] = oldest.value
                }
            }
            let client = makeClient(key)
            state.entries[key] = Entry(client: client, users: 1, lastUse: state.clock)
            return (client, evicted)
        }
        guard let leased else { throw .connectionFailed(host: key.host, detail: "the fetcher is shut down") }
        return leased
    }

    /// Ends one use of `client`; returns it when it was evicted meanwhile and is now unused.
    private func release(_ key: Key, _ client: HTTPClient) -> [HTTPClient] {
        state.withLock { state in
            if var entry = state.entries[key], entry.client === client {
                entry.users -= 1
                state.entries[key] = entry
                return []
            }
            let id = ObjectIdentifier(client)
            guard var entry = state.retiring[id] else { return [] }
            entry.users -= 1
            if entry.users > 0 {
                state.retiring[id] = entry
                return []
            }
            state.retiring[id] = nil
            return [client]
        }
    }

    private func makeClient(_ key: Key) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(connectTimeout)),
            decompression: .disabled)
        var pool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(30))
        // A failed connection fails the request at once; the fetcher then tries the next checked address.
        pool.retryConnectionEstablishment = false
        configuration.connectionPool = pool
        configuration.proxy = nil
        let address = key.address.description
        // AsyncHTTPClient looks the override up by the URL's host, with brackets for IPv6 literals.
        configuration.dnsOverride = [key.host: address, "[\(key.host)]": address]
        return HTTPClient(
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration,
            backgroundActivityLogger: logger)
    }

    private func shutDown(_ clients: [HTTPClient]) async {
        for client in clients {
            do {
                try await client.shutdown()
            } catch {
                logger.debug("HTTP client shutdown failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
