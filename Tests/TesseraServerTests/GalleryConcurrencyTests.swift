import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// Several clients changing one gallery at once: nothing lost or duplicated, one order, and the event
/// stream, replayed, arrives at exactly that order.
@Suite("Galleries under concurrent clients")
struct GalleryConcurrencyTests {
    /// What one client did that the server acknowledged.
    struct Tally: Sendable {
        var added: [String] = []
        var removed: [String] = []
        var acknowledged = 0
    }

    /// On both engines: with PostgreSQL, every change also takes the gallery's row lock.
    @Test(.timeLimit(.minutes(2)), arguments: Engine.allCases)
    func manyClientsLeaveOneConsistentOrder(engine: Engine) async throws {
        try await engine.withEnvironment { try await manyClientsLeaveOneConsistentOrder(on: $0) }
    }

    private func manyClientsLeaveOneConsistentOrder(on engineEnvironment: [String: String]) async throws {
        try await withTessera(StandInSet().list, extraEnvironment: engineEnvironment) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            let search = try await client.execute(uri: "/api/search?q=fox&scope=pixabay", method: .get)
                .json(SearchResponse.self)
            let items = try #require(search.sections.first?.items)
            let bodies = try items.map { try GalleriesAPITests.itemJSON($0) }
            let stream = try await EventStream.open(port: try #require(client.port), gallery: gallery.id)
            #expect(try await stream.next().name == "snapshot")

            let clients = 4
            let operations = 75
            let tallies = try await withThrowingTaskGroup(of: Tally.self) { group in
                for number in 0..<clients {
                    group.addTask {
                        var random = SplitMix64(seed: UInt64(number + 1))
                        var tally = Tally()
                        var mine: [String] = []
                        for _ in 0..<operations {
                            let roll = random.below(4)
                            if mine.isEmpty || roll < 2 {
                                var json = bodies[random.below(bodies.count)]
                                if random.below(2) == 0 {
                                    json = String(json.dropLast()) + #", "index": \#(random.below(30))}"#
                                }
                                let response = try await GalleriesAPITests.add(client, gallery.id, json: json)
                                #expect(response.status == .created)
                                let id = try response.json(GalleryItem.self).id.rawValue
                                mine.append(id)
                                tally.added.append(id)
                                tally.acknowledged += 1
                            } else if roll == 2 {
                                let id = mine[random.below(mine.count)]
                                let response = try await client.execute(
                                    uri: "/api/galleries/\(gallery.id)/items/\(id)/move", method: .post,
                                    body: ByteBuffer(string: #"{"index": \#(random.below(40))}"#))
                                #expect(response.status == .ok)
                                tally.acknowledged += 1
                            } else {
                                let id = mine.remove(at: random.below(mine.count))
                                let response = try await client.execute(
                                    uri: "/api/galleries/\(gallery.id)/items/\(id)", method: .delete)
                                #expect(response.status == .ok)
                                tally.removed.append(id)
                                tally.acknowledged += 1
                            }
                        }
                        return tally
                    }
                }
                return try await group.reduce(into: [Tally]()) { $0.append($1) }
            }

            let added = tallies.flatMap(\.added)
            let removed = Set(tallies.flatMap(\.removed))
            let acknowledged = tallies.map(\.acknowledged).reduce(0, +)
            #expect(acknowledged == clients * operations)
            let final = try await GalleriesAPITests.gallery(client, gallery.id)
            let ids = try #require(final.items?.map(\.id.rawValue))
            #expect(Set(ids).count == ids.count, "no item twice")
            #expect(Set(ids) == Set(added).subtracting(removed), "no item lost, none left that was removed")
            #expect(final.revision == 1 + acknowledged, "one revision per acknowledged change")

            // Replaying the events from the snapshot reproduces the final order exactly.
            var order: [String] = []
            var revision = 1
            while revision < final.revision {
                let event = try await stream.next()
                let number = try #require(event.id.flatMap { Int($0) })
                #expect(number == revision + 1, "events in commit order, none missing")
                revision = number
                struct Change: Decodable {
                    // Snapshots decode as a Gallery instead.
                    let index: Int?
                    let itemId: String?
                    let item: GalleryItem?
                }
                let change = try event.decode(Change.self)
                switch event.name {
                case "added":
                    let index = try #require(change.index)
                    try #require(index <= order.count, "an index the order so far can take")
                    order.insert(try #require(change.item?.id.rawValue), at: index)
                case "moved":
                    let id = try #require(change.itemId)
                    order.removeAll { $0 == id }
                    let index = try #require(change.index)
                    try #require(index <= order.count, "an index the order so far can take")
                    order.insert(id, at: index)
                case "removed":
                    order.removeAll { $0 == change.itemId }
                case "snapshot":
                    // Allowed at any time (the stream's way to say "start again from here").
                    order = try event.decode(Gallery.self).items?.map(\.id.rawValue) ?? []
                default:
                    Issue.record("unexpected event \(event.name)")
                }
            }
            #expect(order == ids)
            await stream.close()
        }
    }
}
