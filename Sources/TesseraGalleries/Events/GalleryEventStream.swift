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
    /// A keep-alive: nothing happened for a while.
    case heartbeat
}

/// A gallery's live events, from `GalleryService.events(of:lastEventID:)`: the decisions of what a client
/// needs (a first snapshot or not, which change becomes an event, when a gap calls for a new snapshot)
/// made here, so the server only encodes them. Iterate it once; it ends when the gallery is gone.
public struct GalleryEventStream: AsyncSequence, Sendable {
    public typealias Element = GalleryStreamEvent

    let messages: AsyncStream<GalleryStreamMessage>
    /// The revision the client says it has (`Last-Event-ID`), if any.
    let lastEventID: Int?
    /// Reads the gallery now, with its items or without.
    let read: @Sendable (_ items: Bool) async throws(GalleryError) -> Gallery

    public func makeAsyncIterator() -> Iterator {
        Iterator(messages: messages.makeAsyncIterator(), lastEventID: lastEventID, read: read)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var messages: AsyncStream<GalleryStreamMessage>.Iterator
        let lastEventID: Int?
        let read: @Sendable (_ items: Bool) async throws(GalleryError) -> Gallery
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
                if let lastEventID, try await lastEventID == read(false).revision {
                    sent = lastEventID
                } else {
                    return try await snapshot()
                }
            }
            while let message = await messages.next() {
                switch message {
                case .change(.gone):
                    ended = true
                    return .gone
                case .change(let change):
                    guard let revision = change.revision, revision > sent else { continue }
                    if revision > sent + 1 { return try await snapshot() }
                    if case .created = change { continue }
                    sent = revision
                    return .change(change)
                case .changedElsewhere(let revision):
                    if revision > sent { return try await snapshot() }
                case .heartbeat:
                    return .heartbeat
                }
            }
            return nil
        }

        private mutating func snapshot() async throws -> GalleryStreamEvent {
            let gallery = try await read(true)
            sent = gallery.revision
            return .snapshot(gallery)
        }
    }
}
