import Foundation

/// Keeps sources' answers for as long as their terms ask, so the same search twice reaches the
/// service once. The source clients (`TesseraSources.SourceHTTP`) read and write through it; the live
/// store is SQLite (`TesseraStorage.ResponseCacheStore`). Here in Core so storage need not know the clients.
public protocol ResponseCaching: Sendable {
    /// The stored body for `key` if it has not expired at `now`.
    func body(for key: String, now: Date) async -> Data?
    /// Stores `body` until `expiresAt`. Failures are logged and ignored: a cache miss is never an error.
    func store(_ body: Data, for key: String, source: SourceID, expiresAt: Date) async
}
