import AsyncHTTPClient
import Foundation
import Synchronization
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// `tessera backup` taken while four clients write to `tessera serve` over HTTP, then `tessera restore` into a
/// fresh folder and `tessera serve` on it (docs/deploy.md, "Backup and restore").
extension BackupCommandTests {
    @Test(.timeLimit(.minutes(5))) func aBackupTakenWhileFourClientsWriteRestoresEveryAcknowledgedChange()
        async throws
    {
        try await withFolders { base in
            let data = base.appendingPathComponent("data")
            let environment = ["TESSERA_DATA": data.path, "TESSERA_IMPORT_RATE": "off"]
            let file = base.appendingPathComponent("backup.tessera")
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                try await run(client, data: data, environment: environment, file: file, base: base)
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }

    private func run(_ client: HTTPClient, data: URL, environment: [String: String], file: URL, base: URL)
        async throws
    {
        do {
            let writes = try await SlowReaderTests.withServer(environment) { server in
                let api = TesseraAPI(client: client, port: server.port)
                let progress = WriteProgress()
                // Given four clients creating galleries, uploading, moving and removing items, each in its own
                // galleries (so each gallery's changes are in the order its client saw them acknowledged).
                async let logs = withThrowingTaskGroup(of: ClientLog.self) { group in
                    for number in 0..<4 {
                        group.addTask { try await Self.write(as: number, api, progress) }
                    }
                    return try await group.reduce(into: [ClientLog]()) { $0.append($1) }
                }
                // When, after some changes each, `tessera backup` runs while they go on.
                while progress.acknowledged < 40, !progress.failed {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let began = ContinuousClock.now
                let backup = try await CLIProcess.run(["backup", file.path], environment: environment)
                progress.stop()
                let done = try await logs
                #expect(backup.status == 0, "\(backup.stderr)")
                #expect(
                    backup.stdout.range(
                        of:
                            #"^Wrote .*backup\.tessera: \d+ galler(y|ies), \d+ items?, \d+ image cop(y|ies), [\d.]+ (KB|MB)\n$"#,
                        options: .regularExpression) != nil, "\(backup.stdout)")
                return (began: began, logs: done)
            }
            let acknowledgedAfter = writes.logs.flatMap(\.acks).filter { $0.at >= writes.began }.count
            #expect(acknowledgedAfter > 0, "the clients went on writing while the backup ran")

            // Then it restores into a fresh folder, which tessera serve and the CLI open.
            let restored = base.appendingPathComponent("restored")
            let restore = try await CLIProcess.run(
                ["restore", file.path, "--data", restored.path], environment: [:])
            #expect(restore.status == 0, "\(restore.stderr)")
            #expect(restore.stdout.contains("every hash checked"), "\(restore.stdout)")
            let restoredEnvironment = ["TESSERA_DATA": restored.path]
            try await SlowReaderTests.withServer(restoredEnvironment) { server in
                let api = TesseraAPI(client: client, port: server.port)
                try await Self.check(writes.logs, began: writes.began, api)
                let listed = try await CLIProcess.run(["gallery", "list", "--json"], environment: restoredEnvironment)
                #expect(listed.status == 0, "\(listed.stderr)")
                #expect(listed.stdout == (try await api.send("GET", "/api/galleries")).text + "\n")
            }
        }
    }

    /// Every gallery is whole and exactly as its client saw it at one revision, no earlier than the last one
    /// acknowledged before the backup began; every image copy is there with its bytes, under the same signed
    /// URL (so the signing key came back too).
    static func check(_ logs: [ClientLog], began: ContinuousClock.Instant, _ api: TesseraAPI) async throws {
        let listed = try await api.json([Gallery].self, api.send("GET", "/api/galleries"), 200)
        var restoredIDs = Set(listed.map(\.id))
        var checkedItems = 0
        for log in logs {
            for (galleryID, states) in log.states {
                let before = log.acks.filter { $0.gallery == galleryID && $0.at < began }.map(\.revision).max()
                guard restoredIDs.remove(galleryID) != nil else {
                    #expect(before == nil, "\(galleryID), acknowledged at revision \(before ?? 0), is missing")
                    continue
                }
                let gallery = try await api.json(Gallery.self, api.send("GET", "/api/galleries/\(galleryID)"), 200)
                let items = gallery.items ?? []
                #expect(gallery.revision >= before ?? 0, "\(galleryID): every change acknowledged before is in it")
                #expect(gallery.itemCount == items.count && Set(items.map(\.id)).count == items.count)
                #expect(items.map(\.id.rawValue) == states[gallery.revision], "\(galleryID) at \(gallery.revision)")
                for item in items {
                    #expect(item.image.original.url == log.urls[item.id.rawValue], "signed alike: the same key")
                    let image = try await api.send("GET", item.image.original.url)
                    #expect(image.status == 200 && image.body == log.bytes[item.id.rawValue], "\(item.id)")
                    checkedItems += 1
                }
            }
        }
        #expect(restoredIDs.isEmpty, "only the clients' galleries")
        #expect(checkedItems > 0)
    }

    /// One client's changes, each step one request answered before the next: a new gallery every ten steps,
    /// uploads (some of an image every client uploads, stored once), moves and removals.
    static func write(as number: Int, _ api: TesseraAPI, _ progress: WriteProgress) async throws -> ClientLog {
        var log = ClientLog()
        var gallery: (id: GalleryID, revision: Int, ids: [String])?
        var step = 0
        do {
            while !progress.stopped {
                defer { step += 1 }
                guard var current = gallery, step % 10 != 0 else {
                    let created = try await api.json(
                        Gallery.self,
                        api.send("POST", "/api/galleries", json: #"{"name":"Client \#(number) \#(step)"}"#), 201)
                    gallery = (created.id, created.revision, [])
                    log.record(created.id, created.revision, [], progress)
                    continue
                }
                let path = "/api/galleries/\(current.id)/items"
                if step % 4 == 3, current.ids.count >= 2 {
                    let moving = step % 8 == 3
                    let item = moving ? current.ids.last! : current.ids[1]
                    let answer =
                        moving
                        ? try await api.send("POST", "\(path)/\(item)/move", json: #"{"index":0}"#)
                        : try await api.send("DELETE", "\(path)/\(item)")
                    let revision = try api.json(Revision.self, answer, 200).revision
                    #expect(revision == current.revision + 1, "one writer per gallery")
                    current.ids.removeAll { $0 == item }
                    if moving { current.ids.insert(item, at: 0) }
                    current.revision = revision
                } else {
                    let bytes =
                        StandInImage.jpeg
                        + Array((step % 4 == 2 ? "shared \(step % 3)" : "client \(number) step \(step)").utf8)
                    let index = step % 3 == 0 ? 0 : nil
                    let added = try await api.json(
                        GalleryItem.self, api.upload(path, bytes, fileName: "\(number)-\(step).jpg", index: index), 201)
                    current.ids.insert(added.id.rawValue, at: index ?? current.ids.count)
                    current.revision += 1
                    log.bytes[added.id.rawValue] = bytes
                    log.urls[added.id.rawValue] = added.image.original.url
                }
                gallery = current
                log.record(current.id, current.revision, current.ids, progress)
            }
        } catch {
            progress.fail()
            throw error
        }
        return log
    }

    struct Revision: Decodable {
        let revision: Int
    }
}

/// What one client was told: each acknowledged change's time and revision, and its gallery's items after it.
struct ClientLog: Sendable {
    struct Ack: Sendable {
        let at: ContinuousClock.Instant
        let gallery: GalleryID
        let revision: Int
    }

    var acks: [Ack] = []
    /// Per gallery, the item ids in order after each acknowledged revision.
    var states: [GalleryID: [Int: [String]]] = [:]
    var bytes: [String: [UInt8]] = [:]
    var urls: [String: String] = [:]

    mutating func record(_ gallery: GalleryID, _ revision: Int, _ ids: [String], _ progress: WriteProgress) {
        acks.append(Ack(at: .now, gallery: gallery, revision: revision))
        states[gallery, default: [:]][revision] = ids
        progress.acknowledge()
    }
}

/// Shared by the writing clients and the test: how many changes were acknowledged, and when to stop.
final class WriteProgress: Sendable {
    private let state = Mutex((acknowledged: 0, stopped: false, failed: false))

    var acknowledged: Int { state.withLock { $0.acknowledged } }
    var stopped: Bool { state.withLock { $0.stopped || $0.failed } }
    var failed: Bool { state.withLock { $0.failed } }
    func acknowledge() { state.withLock { $0.acknowledged += 1 } }
    func stop() { state.withLock { $0.stopped = true } }
    func fail() { state.withLock { $0.failed = true } }
}
