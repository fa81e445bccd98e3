import Foundation
import Synchronization
import TesseraCore
import Testing

@testable import TesseraGalleries

/// What a watching client is told, decided from the fan-out's messages without any HTTP.
@Suite("Gallery event stream")
struct GalleryEventStreamTests {
    static let id = GalleryID("g_abcdefghijklmnopqrst")!

    /// A stream over messages fed by hand, reading a gallery whose revision the test sets.
    static func stream(lastEventID: Int?, revision: Int, missed: [GalleryChange] = []) -> (
        GalleryEventStream, AsyncStream<GalleryStreamMessage>.Continuation, Revision
    ) {
        let (messages, continuation) = AsyncStream.makeStream(of: GalleryStreamMessage.self)
        let current = Revision(revision)
        let read: @Sendable (Bool) async throws(GalleryError) -> Gallery = { items in
            Gallery(
                id: id, name: "Watched", itemCount: 0, cover: nil, createdAt: "", updatedAt: "", deletedAt: nil,
                revision: current.value, items: items ? [] : nil)
        }
        let stream = GalleryEventStream(messages: messages, lastEventID: lastEventID, missed: missed, read: read)
        return (stream, continuation, current)
    }

    static func describe(_ event: GalleryStreamEvent?) -> String {
        switch event {
        case .snapshot(let gallery): "snapshot \(gallery.revision)"
        case .change(let change): "change \(change.revision ?? -1)"
        case .gone: "gone"
        case .heartbeat: "heartbeat"
        case nil: "end"
        }
    }

    @Test func aNewClientGetsASnapshotThenEachChangeOnce() async throws {
        let (stream, feed, _) = Self.stream(lastEventID: nil, revision: 3)
        var events = stream.makeAsyncIterator()
        #expect(Self.describe(try await events.next()) == "snapshot 3")
        feed.yield(.change(.renamed(revision: 3, name: "Old news")))
        feed.yield(.change(.renamed(revision: 4, name: "New")))
        feed.yield(.heartbeat)
        feed.yield(.change(.gone))
        feed.yield(.change(.renamed(revision: 5, name: "After the end")))
        #expect(Self.describe(try await events.next()) == "change 4", "revision 3 was in the snapshot")
        #expect(Self.describe(try await events.next()) == "heartbeat")
        #expect(Self.describe(try await events.next()) == "gone")
        #expect(Self.describe(try await events.next()) == "end")
    }

    @Test func aClientBehindGetsWhatItMissedWhenEveryRevisionIsRemembered() async throws {
        let missed: [GalleryChange] = [.renamed(revision: 3, name: "Three"), .restored(revision: 4)]
        let (stream, feed, _) = Self.stream(lastEventID: 2, revision: 4, missed: missed)
        var events = stream.makeAsyncIterator()
        feed.yield(.change(.renamed(revision: 5, name: "Live")))
        #expect(Self.describe(try await events.next()) == "change 3")
        #expect(Self.describe(try await events.next()) == "change 4")
        #expect(Self.describe(try await events.next()) == "change 5", "then the live ones")

        // A gap (a change forgotten, or made by another process) or changes short of the current revision.
        for (missed, revision) in [([missed[1]], 4), ([missed[0]], 4)] {
            let (behind, _, _) = Self.stream(lastEventID: 2, revision: revision, missed: missed)
            var late = behind.makeAsyncIterator()
            #expect(Self.describe(try await late.next()) == "snapshot 4")
        }
    }

    @Test func aClientUpToDateGetsNoSnapshotOneBehindGetsOne() async throws {
        let (upToDate, feed, _) = Self.stream(lastEventID: 3, revision: 3)
        var events = upToDate.makeAsyncIterator()
        feed.yield(.change(.restored(revision: 4)))
        #expect(Self.describe(try await events.next()) == "change 4")

        let (behind, _, _) = Self.stream(lastEventID: 2, revision: 3)
        var late = behind.makeAsyncIterator()
        #expect(Self.describe(try await late.next()) == "snapshot 3")
    }

    @Test func aGapOrAnOutsideChangeBringsANewSnapshot() async throws {
        let (stream, feed, current) = Self.stream(lastEventID: 1, revision: 1)
        var events = stream.makeAsyncIterator()
        current.value = 3
        feed.yield(.change(.restored(revision: 3)))
        #expect(Self.describe(try await events.next()) == "snapshot 3", "revision 2 was missed")
        current.value = 5
        feed.yield(.changedElsewhere(revision: 3))
        feed.yield(.changedElsewhere(revision: 5))
        #expect(Self.describe(try await events.next()) == "snapshot 5", "3 was told already")
        feed.finish()
        #expect(Self.describe(try await events.next()) == "end")
    }

    @Test func aWatcherWhoLosesAccessHearsNothingMore() async throws {
        let (open, feed, _) = Self.stream(lastEventID: 2, revision: 2)
        // The check as `GalleryService` makes it: `galleryNotFound` once access is gone (a revision > 0 here).
        let allowed = Revision(1)
        var stream = open
        stream.check = { () throws(GalleryError) in
            if allowed.value == 0 { throw .galleryNotFound(Self.id.rawValue) }
        }
        var events = stream.makeAsyncIterator()
        feed.yield(.accessChanged)
        feed.yield(.change(.renamed(revision: 3, name: "Still allowed")))
        feed.yield(.heartbeat)
        #expect(Self.describe(try await events.next()) == "change 3", "a check that passes tells nothing")
        #expect(Self.describe(try await events.next()) == "heartbeat")
        allowed.value = 0
        feed.yield(.accessChanged)
        feed.yield(.change(.renamed(revision: 4, name: "Not for them")))
        #expect(Self.describe(try await events.next()) == "end", "checked before the next change")
        #expect(Self.describe(try await events.next()) == "end")

        // On a heartbeat, and before a deletion is told.
        for message in [GalleryStreamMessage.heartbeat, .change(.deleted(revision: 3, deletedAt: ""))] {
            let (open, feed, _) = Self.stream(lastEventID: 2, revision: 2)
            var stream = open
            stream.check = { () throws(GalleryError) in throw .galleryNotFound(Self.id.rawValue) }
            var events = stream.makeAsyncIterator()
            feed.yield(message)
            feed.yield(.change(.renamed(revision: 3, name: "Not for them")))
            #expect(Self.describe(try await events.next()) == "end")
        }
    }
}

/// The gallery's revision as the test sets it.
final class Revision: Sendable {
    private let revision: Mutex<Int>
    init(_ revision: Int) { self.revision = Mutex(revision) }
    var value: Int {
        get { revision.withLock { $0 } }
        set { revision.withLock { $0 = newValue } }
    }
}
