import AsyncHTTPClient
import Foundation
import TesseraCore
import TesseraSources
import TesseraTestSupport
import Testing

/// Starts `provider` on a real local server, gives the test an HTTP layer pointed at it, and tears both down.
func withStandIn<P: StandInProvider, T>(
    _ provider: P, timeout: Duration = .seconds(5), cache: (any ResponseCaching)? = nil,
    now: @escaping @Sendable () -> Date = Date.init,
    _ body: (StandInServer, SourceHTTP) async throws -> T
) async throws -> T {
    let server = try await StandInServer.start([provider])
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let http = SourceHTTP(client: client, cache: cache, requestTimeout: timeout, now: now)
    do {
        let result = try await body(server, http)
        try await client.shutdown()
        await server.stop()
        return result
    } catch {
        try? await client.shutdown()
        await server.stop()
        throw error
    }
}

/// Runs `operation` and returns the `SourceError` it threw, failing the test if it threw none.
func sourceError(_ operation: () async throws -> some Any) async -> SourceError? {
    do {
        _ = try await operation()
        Issue.record("expected a SourceError, got a result")
        return nil
    } catch let error as SourceError {
        return error
    } catch {
        Issue.record("expected a SourceError, got \(error)")
        return nil
    }
}

/// A response cache in memory, for the tests that check what a client caches.
actor MemoryResponseCache: ResponseCaching {
    private var entries: [String: (Data, Date)] = [:]

    var keys: [String] { Array(entries.keys) }

    func body(for key: String, now: Date) async -> Data? {
        guard let (body, expires) = entries[key], expires > now else { return nil }
        return body
    }

    func store(_ body: Data, for key: String, source: SourceID, expiresAt: Date) async {
        entries[key] = (body, expiresAt)
    }
}
