import Foundation

/// What a client watching one gallery is told, in order of revision.
public enum GalleryStreamEvent: Sendable {
    /// The whole gallery, items included: first unless the client said it is up to date, and again
    /// whenever the stream cannot account for every revision in between (missed events, another process).
    case snapshot(Gallery)
    /// One change, at the revision right after the last one told (never `.created` or `.gone`).
    case change(GalleryChange)
    /// The gallery was deleted for good; the stream ends after this.
    case gone
    /// A keep-alive tick (the watcher's access was checked again just before).
    case heartbeat
}

/// A gallery's live events, from `GalleryService.events(of:lastEventID:)`: the decisions of what a client
/// needs (a first snapshot or not, which change becomes an event, when a gap calls for a new snapshot)
/// made here, so the server only encodes them. Iterate it once; it ends when the gallery is gone, or when
/// `check` finds the watcher may no longer read it (asked on every heartbeat, after a change of who may read
/// the gallery, and before telling that it was deleted).
public struct GalleryEventStream: AsyncSequence, Sendable {
    public typealias Element = GalleryStreamEvent

    let messages: AsyncStream<GalleryStreamMessage>
    /// The revision the client says it has (`Last-Event-ID`), if any.
    let lastEventID: Int?
    /// This server's changes after `lastEventID` that it still remembers, published before `messages`
    /// began, oldest first.
    var missed: [GalleryChange] = []
    /// Reads the gallery now, with its items or without.
    let read: @Sendable (_ items: Bool) async throws(GalleryError) -> Gallery
    /// Throws `galleryNotFound` once the watcher may no longer read the gallery (`nil`: everyone may).
    var check: (@Sendable () async throws(GalleryError) -> Void)? = nil

    public func makeAsyncIterator() -> Iterator {
        Iterator(
            messages: messages.makeAsyncIterator(), lastEventID: lastEventID, missed: missed, read: read, check: check)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var messages: AsyncStream<GalleryStreamMessage>.Iterator
        let lastEventID: Int?
        /// Changes to replay before the live ones, when they account for every revision the client missed.
        var missed: [GalleryChange]
        let read: @Sendable (_ items: Bool) async throws(GalleryError) -> Gallery
        let check: (@Sendable () async throws(GalleryError) -> Void)?
        var started = false
        var ended = false
        /// The revision the client has now.
        var sent = 0

        public mutating func next() async throws -> GalleryStreamEvent? {
            guard !ended else { return nil }
            if !started {
                started = true
                // Read again now that the subscription is on (it was made before this stream was handed
                // out): a change committed before it would otherwise be neither in this revision nor among
                // the events.
                // A revision the gallery never had (negative, or past the current one) gets a snapshot too.
                guard let lastEventID, lastEventID >= 0 else { return try await snapshot() }
                let current = try await read(false).revision
                guard lastEventID <= current else {
                    missed = []
                    return try await snapshot()
                }
                sent = lastEventID
                if lastEventID != current {
                    // Replayed only when they lead from the client's revision to the current one without a
                    // gap (a change by another process, or one forgotten, leaves one): else one snapshot.
                    // Compared one by one: nothing here is sized by the client's number.
                    let revisions = missed.compactMap(\.revision)
                    guard Self.leads(revisions, from: lastEventID, to: current) else {
                        missed = []
                        return try await snapshot()
                    }
                }
            }
            while !missed.isEmpty && !ended {
                if let event = try await told(.change(missed.removeFirst())) { return event }
            }
            while !ended, let message = await messages.next() {
                if let event = try await told(message) { return event }
            }
            return nil
        }

        /// What the client is told of `message`, if anything.
        private mutating func told(_ message: GalleryStreamMessage) async throws -> GalleryStreamEvent? {
            switch message {
            case .change(.gone):
                ended = true
                return .gone
            case .change(let change):
                // Members lose a gallery its owner deletes: not even that is told to them.
                if case .deleted = change, try await !mayStillRead() { return nil }
                guard let revision = change.revision, revision > sent else { return nil }
                if revision > sent + 1 { return try await snapshot() }
                sent = revision
                // A gallery's first revision: only ever replayed to a client that says it has revision 0.
                if case .created = change { return nil }
                return .change(change)
            case .changedElsewhere(let revision):
                return revision > sent ? try await snapshot() : nil
            case .heartbeat:
                return try await mayStillRead() ? .heartbeat : nil
            case .accessChanged:
                _ = try await mayStillRead()
                return nil
            }
        }

        /// Whether the watcher may still read the gallery; if not, the stream ends here (a reconnect is then
        /// answered `404 gallery_not_found`). Any other failure of the check ends it too, by throwing.
        private mutating func mayStillRead() async throws -> Bool {
            guard let check else { return true }
            do {
                try await check()
                return true
            } catch .galleryNotFound {
                ended = true
                return false
            }
        }

        /// Whether `revisions` are exactly `from + 1`, `from + 2`, … and reach at least `to`.
        static func leads(_ revisions: [Int], from: Int, to: Int) -> Bool {
            guard from < to, let last = revisions.last, last >= to else { return false }
            var expected = from
            for revision in revisions {
                guard revision == expected + 1 else { return false }
                expected = revision
            }
            return true
        }

        private mutating func snapshot() async throws -> GalleryStreamEvent {
            let gallery = try await read(true)
            sent = gallery.revision
            return .snapshot(gallery)
        }
    }
}
