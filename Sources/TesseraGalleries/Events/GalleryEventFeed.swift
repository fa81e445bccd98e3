import Foundation

/// Where gallery changes come from when several servers share one database: every change committed by any of
/// them, in commit order, and those a reconnecting client missed. Without one (SQLite, one server), the
/// store's own changes, told after each commit, are the events and this server remembers the recent ones.
///
/// `GalleryEvents` fans out what a feed delivers without knowing the engine behind it (PostgreSQL's is
/// `PostgresGalleryEvents`: an events table written in each change's transaction, and `LISTEN/NOTIFY`).
public protocol GalleryEventFeed: Sendable {
    /// Sets who is told of each change, by any server, in commit order (one call at a time), from now on.
    func deliver(to receiver: @escaping @Sendable (GalleryID, GalleryChange) -> Void)
    /// Gallery `id`'s changes after revision `revision` that are still kept, oldest first (maybe not all of
    /// them: the stream then sees a gap and sends a snapshot instead).
    func changes(of id: GalleryID, after revision: Int) async throws(GalleryError) -> [GalleryChange]
}
