import AsyncHTTPClient
import Foundation
import Synchronization
import TesseraGalleries
import TesseraPostgres
import Testing

@testable import TesseraTestSupport

/// Two `tessera serve` processes on one PostgreSQL database behind nginx (`TestCluster`, as `scripts/cluster`
/// starts them): a change made through one server reaches event streams on the other, in order, and a client
/// catches up on whichever server it reconnects to (docs/cluster.md, "Events between servers").
@Suite("Several servers behind nginx, run as processes")
struct ClusterTests {
    /// The balancer's port was free when chosen, but another test's server may take it before nginx binds it:
    /// starting must then fail rather than hand out that server's port as the balancer's.
    @Test func aBalancerWhosePortIsTakenSaysSo() async throws {
        let taken = try LoopbackSocket()
        defer { taken.close() }
        #expect(listen(taken.descriptor, 1) == 0)
        let error = await #expect(throws: TestBalancer.StartError.self) {
            let balancer = try await TestBalancer.start(upstreams: [taken.port], port: taken.port)
            await balancer.stop()
        }
        guard case .didNotListen(let port, let exited, let log) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(port == taken.port && exited != nil)
        #expect(log.contains("Address already in use"), "\(log)")
        #expect("\(String(describing: error))".contains("bind() to 127.0.0.1:\(taken.port) failed"))
    }

    /// What made tests through nginx fail on a busy machine: an outgoing connection took the chosen port as
    /// its local one before nginx bound it. A port of the balancer's own choosing comes from below the
    /// ephemeral range, and one taken anyway is given up for another.
    @Test func aBalancerWhosePortAnOutgoingConnectionTookTriesAnother() async throws {
        let server = try LoopbackSocket()
        defer { server.close() }
        #expect(listen(server.descriptor, 4) == 0)
        let client = try LoopbackSocket()
        defer { client.close() }
        #expect(LoopbackSocket.connect(client.descriptor, toPort: server.port) == 0)
        var ports = [client.port]
        let balancer = try await TestBalancer.start(upstreams: [server.port]) {
            ports.isEmpty ? try TestBalancer.listenerPort() : ports.removeFirst()
        }
        await balancer.stop()
        #expect(balancer.port != client.port)
        let firstEphemeral =
            try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }.first ?? 32768
        #expect(balancer.port < firstEphemeral)
    }

    @Test(.timeLimit(.minutes(5)))
    func aChangeThroughOneServerReachesStreamsOnTheOtherAndReconnectsCatchUpAnywhere() async throws {
        try await withCluster { cluster, client in
            let (a, b) = (
                TesseraAPI(client: client, port: cluster.servers[0].port),
                TesseraAPI(client: client, port: cluster.servers[1].port)
            )
            let gallery = try a.json(
                Gallery.self, try await a.send("POST", "/api/galleries", json: #"{"name":"Shared"}"#), 201)
            let path = "/api/galleries/\(gallery.id)/items"
            let onB = try await CollectedEvents.open(port: b.port, gallery: gallery.id)
            try await onB.wait { !$0.isEmpty }

            // Given changes through A: an upload, a rename, an upload placed first, a move.
            let first = try a.json(
                GalleryItem.self, try await a.upload(path, Self.image("first"), fileName: "1.jpg", index: nil), 201)
            #expect(try await a.send("PATCH", "/api/galleries/\(gallery.id)", json: #"{"name":"On A"}"#).status == 200)
            let second = try a.json(
                GalleryItem.self, try await a.upload(path, Self.image("second"), fileName: "2.jpg", index: 0), 201)
            #expect(try await a.send("POST", "\(path)/\(second.id)/move", json: #"{"index":1}"#).status == 200)

            // Then B's stream tells each, once and in order, after its first snapshot.
            let seen = try await onB.wait { $0.count >= 5 }
            #expect(seen.map(\.name) == ["snapshot", "added", "renamed", "added", "moved"])
            #expect(seen.map(\.id) == [1, 2, 3, 4, 5])
            #expect(seen[1].data.contains(first.id.rawValue) && seen[3].data.contains(second.id.rawValue))
            await onB.close()

            // When B's client is away while B makes two changes, then reconnects to A with Last-Event-ID 5.
            #expect(try await b.send("DELETE", "\(path)/\(first.id)").status == 200)
            #expect(try await b.send("PATCH", "/api/galleries/\(gallery.id)", json: #"{"name":"On B"}"#).status == 200)
            let onA = try await CollectedEvents.open(port: a.port, gallery: gallery.id, lastEventID: 5)
            let caught = try await onA.wait { $0.count >= 2 }
            // Then exactly what it missed, no snapshot, then what comes next.
            #expect(caught.map(\.name) == ["removed", "renamed"] && caught.map(\.id) == [6, 7])
            #expect(caught[1].data == #"{"name":"On B","revision":7}"#)
            #expect(try await b.send("DELETE", "\(path)/\(second.id)").status == 200)
            let live = try await onA.wait { $0.count >= 3 }
            #expect(live.map(\.id) == [6, 7, 8], "each missed change once, then the live one")
            await onA.close()

            // And the same through the balancer, whichever server it picks.
            for _ in 0..<2 {
                let balanced = try await CollectedEvents.open(
                    port: cluster.balancer.port, gallery: gallery.id, lastEventID: 6)
                let replayed = try await balanced.wait { $0.count >= 2 }
                #expect(replayed.map(\.name) == ["renamed", "removed"] && replayed.map(\.id) == [7, 8])
                await balanced.close()
            }
        }
    }

    /// `tessera gallery add` on the shared database (and the shared image folder) is a change like any other:
    /// an open stream on a server hears it as the change, not as a snapshot, and every server serves its image.
    @Test(.timeLimit(.minutes(5)))
    func theCLIsChangesReachTheServersStreams() async throws {
        try await withCluster { cluster, client in
            let server = TesseraAPI(client: client, port: cluster.servers[1].port)
            let gallery = try server.json(
                Gallery.self, try await server.send("POST", "/api/galleries", json: #"{"name":"From the CLI"}"#), 201)
            let stream = try await CollectedEvents.open(port: server.port, gallery: gallery.id)
            try await stream.wait { !$0.isEmpty }

            let data = cluster.root.appendingPathComponent("cli")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            let bytes = Self.image("from the CLI")
            let file = data.appendingPathComponent("photo.jpg")
            try Data(bytes).write(to: file)
            let added = try await CLIProcess.run(
                ["gallery", "add", gallery.id.rawValue, file.path, "--json"],
                environment: [
                    "TESSERA_DATA": data.path, "TESSERA_MEDIA": cluster.root.appendingPathComponent("media").path,
                    "TESSERA_DATABASE_URL": cluster.databaseURL, "TESSERA_SECRET": cluster.secret,
                ])
            #expect(added.status == 0, "\(added.stderr)")
            let item = try JSONDecoder().decode(GalleryItem.self, from: Data(added.stdout.utf8))

            let events = try await stream.wait { $0.count >= 2 }
            #expect(events.map(\.name) == ["snapshot", "added"] && events.map(\.id) == [1, 2])
            #expect(events.last?.data.contains(item.id.rawValue) == true)
            #expect(events.last?.data.contains(item.image.original.url) == true, "signed alike by every server")
            await stream.close()
            for port in cluster.servers.map(\.port) {
                let image = try await TesseraAPI(client: client, port: port).send("GET", item.image.original.url)
                #expect(image.status == 200 && image.body == bytes)
            }
        }
    }

    /// 4 clients × 75 random adds, moves and removals through nginx, on one gallery, no If-Match.
    @Test(.timeLimit(.minutes(10)))
    func fourClientsThroughTheBalancerLoseNothingAndEveryStreamReplaysTheFinalOrder() async throws {
        try await withCluster { cluster, client in
            let balanced = TesseraAPI(client: client, port: cluster.balancer.port)
            let gallery = try balanced.json(
                Gallery.self, try await balanced.send("POST", "/api/galleries", json: #"{"name":"Busy"}"#), 201)
            var streams: [CollectedEvents] = []
            for server in cluster.servers {
                let stream = try await CollectedEvents.open(port: server.port, gallery: gallery.id)
                try await stream.wait { !$0.isEmpty }
                streams.append(stream)
            }

            let logs = try await withThrowingTaskGroup(of: ClientLog.self) { group in
                for client in 0..<4 {
                    group.addTask { try await Self.randomChanges(by: client, count: 75, balanced, gallery.id) }
                }
                return try await group.reduce(into: [ClientLog]()) { $0.append($1) }
            }

            let final = try balanced.json(
                Gallery.self, try await balanced.send("GET", "/api/galleries/\(gallery.id)"), 200)
            let ids = final.items?.map(\.id.rawValue) ?? []
            let kept = logs.reduce(into: Set<String>()) { $0.formUnion($1.kept) }
            #expect(Set(ids) == kept && ids.count == kept.count, "nothing lost, nothing duplicated")
            let revisions = logs.flatMap(\.revisions)
            #expect(revisions.count == 4 * 75, "every change acknowledged")
            #expect(
                Set(revisions) == Set(stride(from: 2, through: final.revision, by: 1))
                    && final.revision == 1 + revisions.count,
                "one revision per acknowledged change")
            for (n, stream) in streams.enumerated() {
                let events = try await stream.wait(timeout: .seconds(120)) { $0.last?.id == final.revision }
                #expect(try Self.replay(events) == ids, "the events of server \(n + 1) replay to the final order")
                await stream.close()
            }
        }
    }

    /// SIGKILL of one server during a burst of adds through nginx: every acknowledged item is there, in each
    /// client's order, with its image bytes, read through the other server.
    @Test(.timeLimit(.minutes(5)))
    func killingOneServerDuringABurstLosesNoAcknowledgedAdd() async throws {
        try await withCluster(statuses: [SIGKILL, 0]) { cluster, client in
            let balanced = TesseraAPI(client: client, port: cluster.balancer.port)
            let gallery = try balanced.json(
                Gallery.self, try await balanced.send("POST", "/api/galleries", json: #"{"name":"Burst"}"#), 201)
            let path = "/api/galleries/\(gallery.id)/items"
            let acknowledged = Count()
            let acknowledgedOrders = try await withThrowingTaskGroup(of: [(String, [UInt8])].self) { group in
                for client in 0..<2 {
                    group.addTask {
                        var added: [(String, [UInt8])] = []
                        for change in 0..<40 {
                            let bytes = Self.image("burst \(client) \(change)")
                            // Not acknowledged (the server died under it): the test cannot know whether it
                            // committed, so it asks nothing of it.
                            guard
                                let answer = try? await balanced.upload(
                                    path, bytes, fileName: "b\(client)-\(change).jpg", index: nil),
                                answer.status == 201
                            else { continue }
                            let item = try JSONDecoder().decode(GalleryItem.self, from: Data(answer.body))
                            added.append((item.id.rawValue, bytes))
                            acknowledged.add()
                        }
                        return added
                    }
                }
                // One server killed once the burst is under way.
                while acknowledged.value < 10 { try await Task.sleep(for: .milliseconds(5)) }
                #expect(await cluster.servers[0].stop(signal: SIGKILL) == SIGKILL, "killed, not shut down")
                return try await group.reduce(into: [[(String, [UInt8])]]()) { $0.append($1) }
            }
            #expect(acknowledgedOrders.map(\.count).reduce(0, +) > 40, "the other server took over")

            let survivor = TesseraAPI(client: client, port: cluster.servers[1].port)
            let final = try survivor.json(
                Gallery.self, try await survivor.send("GET", path.dropLast(6).description), 200)
            let ids = final.items?.map(\.id.rawValue) ?? []
            for order in acknowledgedOrders {
                let positions = order.map { id, _ in ids.firstIndex(of: id) }
                #expect(!positions.contains(nil), "every acknowledged item is there")
                let found = positions.compactMap { $0 }
                #expect(found == found.sorted(), "in the order the client was answered")
            }
            let bytes = Dictionary(acknowledgedOrders.flatMap { $0 }, uniquingKeysWith: { first, _ in first })
            for item in final.items ?? [] {
                guard let expected = bytes[item.id.rawValue] else { continue }
                let image = try await survivor.send("GET", item.image.original.url)
                #expect(image.status == 200 && image.body == expected, "\(item.id)")
            }
        }
    }

    // MARK: - Helpers

    /// A fresh database and a cluster on it, stopped after `body`; the servers' exit statuses are `statuses`
    /// (0: a clean shutdown).
    func withCluster(statuses: [Int32] = [0, 0], _ body: (TestCluster, HTTPClient) async throws -> Void)
        async throws
    {
        try await TestPostgres.withFreshDatabase(on: try ServePostgresTests.server()) { url in
            let cluster = try await TestCluster.start(url)
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                try await body(cluster, client)
            } catch {
                try? await client.shutdown()
                _ = await cluster.stop()
                throw error
            }
            try await client.shutdown()
            #expect(await cluster.stop() == statuses)
        }
    }

    /// A JPEG whose bytes (so its stored copy) are its own.
    static func image(_ tag: String) -> [UInt8] { StandInImage.jpeg + Array(tag.utf8) }

    /// A number several tasks add to.
    final class Count: Sendable {
        private let count = Atomic(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    struct ClientLog: Sendable {
        var kept: Set<String> = []
        var revisions: [Int] = []
    }

    /// `count` random changes by one client: uploads, and moves and removals of items it added itself.
    static func randomChanges(by client: Int, count: Int, _ api: TesseraAPI, _ gallery: GalleryID) async throws
        -> ClientLog
    {
        var log = ClientLog()
        let path = "/api/galleries/\(gallery)/items"
        for change in 0..<count {
            let roll = Double.random(in: 0..<1)
            let answer: TesseraAPI.Answer
            if log.kept.isEmpty || roll < 0.45 {
                answer = try await api.upload(
                    path, image("client \(client) change \(change)"), fileName: "c\(client)-\(change).jpg",
                    index: Bool.random() ? Int.random(in: 0...20) : nil)
                #expect(answer.status == 201, "\(answer.text.prefix(200))")
                log.kept.insert(try JSONDecoder().decode(GalleryItem.self, from: Data(answer.body)).id.rawValue)
            } else if roll < 0.75 {
                let item = log.kept.randomElement()!
                answer = try await api.send(
                    "POST", "\(path)/\(item)/move", json: #"{"index":\#(Int.random(in: 0...40))}"#)
                #expect(answer.status == 200, "\(answer.text.prefix(200))")
            } else {
                let item = log.kept.randomElement()!
                answer = try await api.send("DELETE", "\(path)/\(item)")
                #expect(answer.status == 200, "\(answer.text.prefix(200))")
                log.kept.remove(item)
            }
            if let revision = answer.revision { log.revisions.append(revision) }
        }
        return log
    }

    struct AddedEvent: Decodable {
        let index: Int
        let item: GalleryItem
    }
    struct ItemEvent: Decodable {
        let itemId: String
        let index: Int?
    }

    /// The item order a client following `events` ends with; each change must follow the one before it.
    static func replay(_ events: [CollectedEvents.Event]) throws -> [String] {
        var ids: [String] = []
        var revision = 0
        for event in events {
            let data = Data(event.data.utf8)
            if event.name == "snapshot" {
                let gallery = try JSONDecoder().decode(Gallery.self, from: data)
                (ids, revision) = (gallery.items?.map(\.id.rawValue) ?? [], gallery.revision)
                continue
            }
            #expect(event.id == revision + 1, "\(event.name) \(event.id ?? -1) after revision \(revision)")
            revision = event.id ?? revision
            switch event.name {
            case "added":
                let added = try JSONDecoder().decode(AddedEvent.self, from: data)
                ids.insert(added.item.id.rawValue, at: min(added.index, ids.count))
            case "moved":
                let moved = try JSONDecoder().decode(ItemEvent.self, from: data)
                ids.removeAll { $0 == moved.itemId }
                ids.insert(moved.itemId, at: min(moved.index ?? ids.count, ids.count))
            case "removed":
                let removed = try JSONDecoder().decode(ItemEvent.self, from: data)
                ids.removeAll { $0 == removed.itemId }
            default:
                Issue.record("unexpected event \(event.name)")
            }
        }
        return ids
    }
}
