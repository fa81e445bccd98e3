import Foundation
import Synchronization

/// Answers a response cache has stored but not yet written to its database, readable meanwhile: both engines
/// (SQLite, PostgreSQL) write in the background so a search never waits for the disk, and a second search
/// for the same thing must still find the answer.
public final class QueuedCacheWrites: Sendable {
    private let entries = Mutex<[String: (body: Data, expiresAt: Date)]>([:])

    public init() {}

    public func get(_ key: String) -> (Data, Date)? {
        entries.withLock { $0[key].map { ($0.body, $0.expiresAt) } }
    }

    public func put(_ key: String, _ body: Data, _ expiresAt: Date) {
        entries.withLock { $0[key] = (body, expiresAt) }
    }

    /// Forgets `key` once written, unless a newer body was queued for it meanwhile.
    public func remove(_ key: String, ifBody body: Data) {
        entries.withLock { entries in
            if entries[key]?.body == body { entries[key] = nil }
        }
    }
}
