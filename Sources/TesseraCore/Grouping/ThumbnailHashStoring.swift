import Foundation

/// The perceptual hash of each thumbnail the image proxy made, by image source, kept in a database (SQLite in the
/// data folder, or PostgreSQL shared by several servers): the third place `ThumbnailHashes` looks, after memory
/// and the disk cache's side files, so a hash one server made is known to every server on the database without
/// making the thumbnail again. A cache: failures are logged and read as a miss, never an error.
public protocol ThumbnailHashStoring: Sendable {
    /// The hash kept for `source`, or `nil`.
    func hash(of source: String) async -> PerceptualHash?
    /// The hashes kept for any of `sources`, in one query: a search page's pictures at once.
    func hashes(of sources: [String]) async -> [String: PerceptualHash]
    /// Keeps each of `hashes` for its source (replacing one kept before), stamped `now`, in one write: the
    /// proxy keeps a search page's hashes together rather than a transaction each (docs/duplicates.md, "The
    /// hash in the database").
    func store(_ hashes: [String: PerceptualHash], now: Date) async
    /// Deletes hashes kept before `cutoff`; returns how many.
    @discardableResult func purge(before cutoff: Date) async throws -> Int
}

extension ThumbnailHashStoring {
    /// Keeps `hash` for `source` (replacing one kept before), stamped `now`.
    public func store(_ hash: PerceptualHash, for source: String, now: Date) async {
        await store([source: hash], now: now)
    }
}
