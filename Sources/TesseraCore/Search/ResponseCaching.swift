import Foundation

/// Keeps sources' answers for as long as their terms ask, so the same search twice reaches the
/// service once. The source clients (`TesseraSources.SourceHTTP`) read and write through it; the live
/// store is SQLite (`TesseraSQLite.SQLiteResponseCache`). Here in Core so storage need not know the clients.
public protocol ResponseCaching: Sendable {
    /// The stored body for `key` if it has not expired at `now`.
    func body(for key: String, now: Date) async -> Data?
    /// Stores `body` until `expiresAt`. Failures are logged and ignored: a cache miss is never an error.
    func store(_ body: Data, for key: String, source: SourceID, expiresAt: Date) async
}

/// A response cache kept in a database (SQLite in the data folder, or PostgreSQL shared by several servers):
/// what start-up, shutdown and the tests need besides reading and writing. One test suite checks every engine.
public protocol ResponseCacheStoring: ResponseCaching {
    /// Returns once every answer stored so far is written.
    func flush() async
    /// Deletes answers whose time is up at `now`; returns how many.
    @discardableResult func purgeExpired(now: Date) async throws -> Int
    /// How many answers are stored.
    func count() async throws -> Int
}
