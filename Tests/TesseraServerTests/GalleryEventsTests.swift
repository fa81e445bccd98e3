import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraCore
import TesseraSQLite
import TesseraTestSupport
import Testing

@testable import TesseraGalleries

/// A gallery's event stream read as a browser reads it, while other clients change the gallery.
@Suite("Gallery events")
struct GalleryEventsTests {
    @Test(.timeLimit(.minutes(1))) func everyChangeArrivesInOrderAndReconnectsCatchUp() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let port = try #require(client.port)
            let gallery = try await GalleriesAPITests.create(client)
            let stream = try await EventStream.open(port: port, gallery: gallery.id)
            let snapshot = try await stream.next()
            #expect(snapshot.name == "snapshot" && snapshot.id == "1")
            #expect(try snapshot.decode(Gallery.self).items == [])

            let item = try await GalleriesAPITests.firstResult(client)
            let added = try await GalleriesAPITests.add(client, gallery.id, json: try GalleriesAPITests.itemJSON(item))
                .json(GalleryItem.self)
            let event = try await stream.next()
            #expect(event.name == "added" && event.id == "2")
            #expect(event.data.contains(#""index":0"#) && event.data.contains(added.id.rawValue))

            _ = try await client.execute(
                uri: "/api/galleries/\(gallery.id)", method: .patch, body: ByteBuffer(string: #"{"name":"Dunes"}"#))
            let renamed = try await stream.next()
            #expect(renamed.name == "renamed" && renamed.id == "3" && renamed.data == #"{"name":"Dunes","revision":3}"#)
            _ = try await client.execute(uri: "/api/galleries/\(gallery.id)/items/\(added.id)", method: .delete)
            let removed = try await stream.next()
            #expect(removed.name == "removed" && removed.data == #"{"itemId":"\#(added.id)","revision":4}"#)
            await stream.close()

            // Reconnecting up to date: nothing resent; behind: each change it missed, which the server remembers.
            let current = try await EventStream.open(port: port, gallery: gallery.id, lastEventID: "4")
            let behind = try await EventStream.open(port: port, gallery: gallery.id, lastEventID: "2")
            let missed = [try await behind.next(), try await behind.next()]
            #expect(missed.map(\.name) == ["renamed", "removed"] && missed.map(\.id) == ["3", "4"])
            #expect(missed[0].data == renamed.data && missed[1].data == removed.data, "the same events again")
            _ = try await client.execute(uri: "/api/galleries/\(gallery.id)", method: .delete)
            let first = try await current.next()
            #expect(first.name == "deleted" && first.id == "5", "no snapshot before the new change")
            _ = try await client.execute(uri: "/api/galleries/\(gallery.id)?permanent=true", method: .delete)
            #expect(try await current.next().name == "gone")
            #expect(try await current.ended())
            await current.close()
            await behind.close()
        }
    }

    /// A `Last-Event-ID` that is no revision is a 400, one the gallery never reached is a snapshot, and none of
    /// them sizes anything (a replay range built from `-1099511627776` would be an 8 TB array, the process's end).
    @Test(.timeLimit(.minutes(1))) func hostileLastEventIDsAreAnsweredAndTheServerStaysUp() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let port = try #require(client.port)
            let gallery = try await GalleriesAPITests.create(client)
            _ = try await client.execute(
                uri: "/api/galleries/\(gallery.id)", method: .patch, body: ByteBuffer(string: #"{"name":"Dunes"}"#))
            let refused = [
                "-1099511627776", "-9223372036854775808", "-1", "9223372036854775807", "9223372036854775808",
                "99999999999999999999999999", "+1", "1 2", "0x1", "1.0", "１", "١",
            ]
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            defer { _ = http.shutdown() }
            for value in refused {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/galleries/\(gallery.id)/events")
                request.headers.add(name: "Last-Event-ID", value: value)
                let response = try await http.execute(request, timeout: .seconds(10))
                let body = String(buffer: try await response.body.collect(upTo: 1 << 16))
                #expect(response.status == .badRequest, "\(value)")
                #expect(body.contains("Last-Event-ID must be a gallery revision"), "\(value): \(body)")
            }
            // Past the gallery's revision 2, leading zeros, spaces around, empty: each a snapshot at revision 2,
            // or (002, the current one) no snapshot at all.
            for value in ["3", "999999999999999999", "", " "] {
                let stream = try await EventStream.open(port: port, gallery: gallery.id, lastEventID: value)
                let first = try await stream.next()
                #expect(first.name == "snapshot" && first.id == "2", "\(value)")
                await stream.close()
            }
            // Revision 1 written with leading zeros, or with spaces around, is revision 1: the rename that made
            // revision 2 is replayed (a value taken for none would get a snapshot, a refused one a 400).
            for value in ["001", " 1 ", "01"] {
                let stream = try await EventStream.open(port: port, gallery: gallery.id, lastEventID: value)
                let first = try await stream.next()
                #expect(first.name == "renamed" && first.id == "2", "\(value): \(first.name) \(first.id ?? "")")
                await stream.close()
            }
            let health = try await client.execute(uri: "/api/health", method: .get)
            #expect(health.status == .ok)
        }
    }

    @Test(.timeLimit(.minutes(1))) func changesMadeByAnotherProcessArriveAsASnapshot() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-events-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        try await withTessera(StandInSet().list, dataFolder: data) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            let stream = try await EventStream.open(port: try #require(client.port), gallery: gallery.id)
            #expect(try await stream.next().name == "snapshot")
            // Another process (here: another connection to the same database file, as the CLI would open).
            let other = SQLiteGalleryStore(
                database: try AppDatabase.open(inDirectory: data),
                linker: StaticLinker())
            _ = try await other.rename(gallery.id, to: "Renamed elsewhere")
            let event = try await stream.next()
            #expect(event.name == "snapshot" && event.id == "2")
            #expect(try event.decode(Gallery.self).name == "Renamed elsewhere")
            await stream.close()
        }
    }
}

/// Links that are just the reference: for a store opened outside the server.
struct StaticLinker: ImageLinking {
    func link(_ upstreamURL: String, variant: ImageVariant) -> String { "/img/\(variant.rawValue)/x/\(upstreamURL)" }
}

/// A server-sent event stream read incrementally over a real connection.
final class EventStream: Sendable {
    struct Event: Sendable {
        var name = "message"
        var id: String?
        var data = ""

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONDecoder().decode(T.self, from: Data(data.utf8))
        }
    }

    struct Timeout: Error {}

    private let client: HTTPClient
    private let events: AsyncStream<Event?>
    private let reader: Task<Void, Never>
    private let iterator: IteratorBox

    private final class IteratorBox: @unchecked Sendable {
        // Only used by the test's own task, one call at a time.
        var iterator: AsyncStream<Event?>.Iterator
        init(_ iterator: AsyncStream<Event?>.Iterator) { self.iterator = iterator }
    }

    private init(client: HTTPClient, events: AsyncStream<Event?>, reader: Task<Void, Never>) {
        self.client = client
        self.events = events
        self.reader = reader
        self.iterator = IteratorBox(events.makeAsyncIterator())
    }

    static func open(port: Int, gallery: GalleryID, lastEventID: String? = nil, cookie: String? = nil) async throws
        -> EventStream
    {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/galleries/\(gallery)/events")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        let response = try await client.execute(request, timeout: .seconds(60))
        #expect(response.status == .ok)
        let (events, continuation) = AsyncStream.makeStream(of: Event?.self)
        let reader = Task {
            var parser = ServerSentEventParser()
            do {
                for try await chunk in response.body {
                    for event in parser.feed(String(buffer: chunk)) {
                        continuation.yield(Event(name: event.name, id: event.id, data: event.data))
                    }
                }
            } catch {}
            continuation.yield(nil)
            continuation.finish()
        }
        return EventStream(client: client, events: events, reader: reader)
    }

    /// The next event, within `timeout`.
    func next(timeout: Duration = .seconds(5)) async throws -> Event {
        guard let event = try await nextOrEnd(timeout: timeout) else { throw Timeout() }
        return event
    }

    /// Whether the server ended the stream (within `timeout`).
    func ended(timeout: Duration = .seconds(5)) async throws -> Bool {
        try await nextOrEnd(timeout: timeout) == nil
    }

    /// Every event left until the server ends the stream, which it must do within `timeout`.
    func rest(within timeout: Duration) async throws -> [Event] {
        let deadline = ContinuousClock.now + timeout
        var events: [Event] = []
        while let event = try await nextOrEnd(timeout: deadline - .now) { events.append(event) }
        return events
    }

    /// `rest(within:)`, closing the stream however that went (a test that fails must not leak the client).
    func restAndClose(within timeout: Duration) async throws -> [Event] {
        do {
            let events = try await rest(within: timeout)
            await close()
            return events
        } catch {
            await close()
            throw error
        }
    }

    private func nextOrEnd(timeout: Duration) async throws -> Event? {
        let box = iterator
        return try await withThrowingTaskGroup(of: Event?.self) { group in
            group.addTask { await box.iterator.next() ?? nil }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw Timeout()
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    func close() async {
        reader.cancel()
        try? await client.shutdown()
    }
}
