import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraGalleries
import TesseraTestSupport
import Testing

/// A client that stops reading an event stream: the server holds a bounded backlog for it, then closes the
/// connection (not waiting for the send timeout), and the client resumes with `Last-Event-ID` without
/// losing an event.
@Suite("A stalled event-stream reader")
struct StalledStreamTests {
    /// A complete event of a stream: its name, id and data.
    struct Event: Equatable {
        var name: String
        var id: Int?
        var data: String
    }

    /// The complete events in `text`, an answer as received (comments, chunk sizes and a trailing partial
    /// event left out; each event is one chunk). `\r\n` is one `Character` in Swift: made `\n` first.
    static func events(_ text: String) -> [Event] {
        text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n").dropLast().compactMap {
            block in
            var event = Event(name: "message", id: nil, data: "")
            var hasData = false
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                if line.hasPrefix("id: ") { event.id = Int(line.dropFirst(4)) }
                if line.hasPrefix("data: ") {
                    event.data = String(line.dropFirst(6))
                    hasData = true
                }
            }
            return hasData ? event : nil
        }
    }

    @Test(.timeLimit(.minutes(3))) func aStalledReaderIsDroppedPastTheBoundAndResumesWithLastEventID() async throws {
        // A send timeout far beyond this test's: only the stream's own bound can close the connection in time.
        try await withTessera(StandInSet().list, extraEnvironment: ["TESSERA_SEND_TIMEOUT": "900"]) { client, _ in
            let port = try #require(client.port)
            let gallery = try await GalleriesAPITests.create(client, "Stalled")
            let path = "/api/galleries/\(gallery.id)"

            // Given a reader with a small receive buffer that takes the first snapshot, then stops reading.
            let stalled = try RawConnection(port: port, receiveBuffer: 4096)
            defer { stalled.close() }
            try stalled.send("GET \(path)/events HTTP/1.1\r\nHost: x\r\n\r\n")
            var head = ""
            while !Self.events(head).contains(where: { $0.name == "snapshot" }) {
                head += try await offPool { try stalled.receive() }
            }
            #expect(head.hasPrefix("HTTP/1.1 200"))
            let snapshot = try #require(Self.events(head).first { $0.name == "snapshot" })
            #expect(snapshot.id == gallery.revision)

            // When the gallery changes, again and again, until the server lets the reader go: a search result
            // added each time, made large (10 KB) so that the socket buffers (megabytes on loopback) fill soon.
            var item = try await GalleriesAPITests.firstResult(client)
            item.title = String(repeating: "t", count: 1000)
            item.tags = (0..<100).map { "tag \($0) " + String(repeating: "x", count: 80) }
            let body = try GalleriesAPITests.itemJSON(item)
            var added: [Int: String] = [:]
            var revision = gallery.revision
            func change(_ count: Int) async throws {
                for _ in 0..<count {
                    let answer = try await GalleriesAPITests.add(client, gallery.id, json: body)
                    #expect(answer.status == .created)
                    revision = try #require(Int(answer.headers[.eTag]?.trimmingCharacters(in: ["\""]) ?? ""))
                    added[revision] = try answer.json(GalleryItem.self).id.rawValue
                }
            }
            var dropped = false
            for _ in 0..<100 where !dropped {
                try await change(20)
                try await Task.sleep(for: .milliseconds(100))
                dropped = !ServerSockets.holds(port: port, peerPort: stalled.localPort)
            }
            #expect(dropped, "the server closed the stalled stream after \(added.count) changes")
            let droppedAt = revision
            try await change(5)

            // Then the reader gets what was on its way, in order, and the end of the connection.
            let received = String(decoding: try await offPool { try stalled.receiveToEnd() }, as: UTF8.self)
            let changes = Self.events(received).filter { $0.name == "added" }
            let lastSeen = changes.last?.id ?? snapshot.id!
            #expect(changes.map(\.id) == Array(gallery.revision + 1..<lastSeen + 1).map { Optional($0) })
            #expect(lastSeen < droppedAt, "some events were never sent to it")

            // And reconnecting with Last-Event-ID, it gets every change it missed, one event each, in order.
            let resumed = try RawConnection(port: port)
            defer { resumed.close() }
            try resumed.send("GET \(path)/events HTTP/1.1\r\nHost: x\r\nLast-Event-ID: \(lastSeen)\r\n\r\n")
            var text = ""
            while Self.events(text).last?.id != revision {
                text += try await offPool { try resumed.receive() }
            }
            let replayed = Self.events(text)
            #expect(!replayed.contains { $0.name == "snapshot" }, "no snapshot: the changes themselves")
            #expect(replayed.map(\.id) == Array(lastSeen + 1...revision).map { Optional($0) })
            for event in replayed {
                #expect(event.name == "added" && event.data.contains(added[event.id ?? 0] ?? "?"), "\(event.id ?? 0)")
            }
        }
    }
}
