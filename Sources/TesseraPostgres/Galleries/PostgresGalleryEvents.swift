import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization
import TesseraCore
import TesseraGalleries

/// Gallery changes of every server sharing the database (see docs/cluster.md, "Events between servers").
///
/// Each change writes a `gallery_event` row in its own transaction (`record`, from `PostgresGalleryStore`) and
/// `pg_notify`s the row's id, with the change itself when it fits. Every server listens on one pooled connection
/// (the pool has one more than its size for it) and delivers each change, reading the row when the notification
/// carries only its id: PostgreSQL hands notifications out in commit order, and within a gallery the row lock
/// every change takes makes commit order, id order and revision order the same. A client reconnecting with
/// `Last-Event-ID` reads the gallery's rows after that revision, whichever server it reaches.
///
/// The last `kept` events stay (about that many changes across all galleries): a client further behind gets a
/// snapshot, as with one server. While the listening connection is down (the database restarting), nothing
/// arrives: on reconnecting it delivers again what may have committed meanwhile, and the events' revision
/// poll sends snapshots for what still slips through.
public final class PostgresGalleryEvents: GalleryEventFeed, Service {
    static let channel = "tessera_gallery_events"
    /// Events kept for clients that reconnect.
    static let kept: Int64 = 10_000
    /// The old ones are deleted by the change whose id is a multiple of this.
    static let pruneEvery: Int64 = 256
    /// A change of at most this many bytes goes in its notification (PostgreSQL takes payloads under 8,000
    /// bytes; room left for the id and the gallery's); a longer one is read from its row.
    static let notifyLimit = 7_900
    /// How far back in ids a reconnect looks again: more than the changes that can be in flight at once (one
    /// per pooled connection of every server), since ids are taken before commit, not in commit order.
    static let reconnectOverlap: Int64 = 1000

    let database: PostgresAppDatabase
    let logger: Logger
    private let receiver = LockedClosure<@Sendable (GalleryID, GalleryChange) -> Void>({ _, _ in })
    /// Only `run`'s task uses it; kept across reconnections.
    private let delivered = Mutex(DeliveredIDs())

    public init(database: PostgresAppDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    public func deliver(to receiver: @escaping @Sendable (GalleryID, GalleryChange) -> Void) {
        self.receiver.function = receiver
    }

    public func changes(of id: GalleryID, after revision: Int) async throws(GalleryError) -> [GalleryChange] {
        try await PostgresGalleryStore.galleryErrors {
            try await self.database.withConnection { connection in
                var changes: [GalleryChange] = []
                for try await text in try await connection.query(
                    """
                    SELECT change FROM gallery_event WHERE gallery_id = \(id.rawValue) AND revision > \(revision)
                    ORDER BY id
                    """, logger: .quiet
                ).decode(String.self) {
                    changes.append(try StoredChange.decoded(text))
                }
                return changes
            }
        }
    }

    /// Listens until graceful shutdown, connecting again whenever the connection is lost (after a pause that
    /// grows to 5 seconds while connecting keeps failing).
    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var pause = Duration.milliseconds(100)
            while !Task.isCancelled {
                let started = ContinuousClock.now
                do {
                    try await self.listen()
                } catch {
                    guard !Task.isCancelled else { return }
                    let reason = SharedDatabaseError.mapped(error, server: self.database.url)
                    self.logger.warning(
                        "gallery events: listening connection lost, reconnecting",
                        metadata: ["error": "\(String(describing: reason))"])
                }
                if ContinuousClock.now - started > .seconds(10) { pause = .milliseconds(100) }
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(5))
            }
        }
    }

    private func listen() async throws {
        try await database.withListeningConnection { connection in
            try await connection.listen(on: Self.channel) { notifications in
                // Listening now: what committed while nobody listened is delivered first (the first time,
                // nobody can have missed anything: only where the events stand is noted).
                if let last = self.delivered.withLock({ $0.highest }) {
                    try await self.deliver("id > \(last - Self.reconnectOverlap) ORDER BY id", connection)
                } else {
                    for try await highest in try await connection.query(
                        "SELECT coalesce(max(id), 0) FROM gallery_event", logger: .quiet
                    ).decode(Int64.self) {
                        self.delivered.withLock { $0.highest = $0.highest ?? highest }
                    }
                }
                for try await notification in notifications {
                    guard let event = Notified(notification.payload),
                        !self.delivered.withLock({ $0.contains(event.id) })
                    else { continue }
                    if let (gallery, text) = event.change {
                        self.deliver(event.id, of: gallery, text)
                    } else {
                        try await self.deliver("id = \(event.id)", connection)
                    }
                }
            }
        }
    }

    /// Delivers the events `condition` selects (trusted SQL: numbers only), each once.
    private func deliver(_ condition: String, _ connection: PostgresConnection) async throws {
        for try await (id, gallery, text) in try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT id, gallery_id, change FROM gallery_event WHERE \(condition)"),
            logger: .quiet
        ).decode((Int64, String, String).self) {
            deliver(id, of: gallery, text)
        }
    }

    /// Delivers event `id` of `gallery`, its change written as `text`, unless it was delivered already.
    private func deliver(_ id: Int64, of gallery: String, _ text: String) {
        guard delivered.withLock({ $0.insert(id) }) else { return }
        do {
            receiver.function(GalleryID(unchecked: gallery), try StoredChange.decoded(text))
        } catch {
            logger.error("gallery events: unreadable event", metadata: ["id": "\(id)", "error": "\(error)"])
        }
    }

    /// A notification's payload: `id`, or `id gallery change` when the change fits (`notifyLimit`), which saves
    /// every server reading the row.
    struct Notified {
        let id: Int64
        let change: (gallery: String, text: String)?

        init?(_ payload: String) {
            let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard let id = parts.first.flatMap({ Int64($0) }) else { return nil }
            self.id = id
            change = parts.count == 3 ? (String(parts[1]), String(parts[2])) : nil
        }
    }

    // MARK: - Writing

    /// Writes `change` of gallery `id` as an event, in the caller's transaction, and notifies every server once
    /// it commits; in the same statement (one round trip) writes the gallery's new revision (`bumped`) and
    /// inserts the item the change adds (`inserted`); then `prune`.
    static func record(
        _ change: GalleryChange, of id: GalleryID, bumping bumped: GalleryRow? = nil,
        inserting inserted: GalleryItemRow? = nil, _ connection: PostgresConnection
    ) async throws {
        let text = try StoredChange(change).encoded()
        var sql = PostgresQuery.StringInterpolation(literalCapacity: 512, interpolationCount: 18)
        sql.appendLiteral("WITH ")
        if let row = inserted {
            sql.appendLiteral("inserted AS (INSERT INTO gallery_item (\(GalleryItemRow.writtenColumns)) VALUES ")
            row.appendValues(to: &sql)
            sql.appendLiteral("), ")
        }
        if let gallery = bumped {
            sql.appendLiteral("bumped AS (UPDATE gallery SET revision = ")
            sql.appendInterpolation(gallery.revision)
            sql.appendLiteral(", updated_at = ")
            sql.appendInterpolation(gallery.updatedAt)
            sql.appendLiteral(" WHERE id = ")
            sql.appendInterpolation(gallery.id)
            sql.appendLiteral("), ")
        }
        sql.appendLiteral("event AS (INSERT INTO gallery_event (gallery_id, revision, change) VALUES (")
        sql.appendInterpolation(id.rawValue)
        sql.appendLiteral(", ")
        sql.appendInterpolation(change.revision)
        sql.appendLiteral(", ")
        sql.appendInterpolation(text)
        sql.appendLiteral(") RETURNING id, gallery_id, change) SELECT event.id FROM event, pg_notify(")
        sql.appendInterpolation(channel)
        sql.appendLiteral(
            ", gallery_event_payload(event.id, event.gallery_id, event.change, \(notifyLimit))) AS notified")
        var eventID: Int64 = 0
        for try await value in try await connection.query(PostgresQuery(stringInterpolation: sql), logger: .quiet)
            .decode(Int64.self)
        {
            eventID = value
        }
        try await prune(after: eventID, connection)
    }

    /// Every `pruneEvery`th event deletes those older than the last `kept`.
    static func prune(after eventID: Int64, _ connection: PostgresConnection) async throws {
        if eventID % pruneEvery == 0 {
            try await connection.query("DELETE FROM gallery_event WHERE id <= \(eventID - kept)", logger: .quiet)
        }
    }
}

/// The ids of the last events delivered, so one delivered again after a reconnect is not told twice.
struct DeliveredIDs: Sendable {
    private var ids: Set<Int64> = []
    private var order: [Int64] = []
    /// The highest id delivered, or where the events stood when this server first listened.
    var highest: Int64?
    static let limit = 4096

    func contains(_ id: Int64) -> Bool { ids.contains(id) }

    /// Whether `id` is new.
    mutating func insert(_ id: Int64) -> Bool {
        guard ids.insert(id).inserted else { return false }
        order.append(id)
        highest = max(highest ?? id, id)
        if order.count >= 2 * Self.limit {
            for old in order.prefix(Self.limit) { ids.remove(old) }
            order.removeFirst(Self.limit)
        }
        return true
    }
}

/// A `GalleryChange` as a `gallery_event` row keeps it: JSON, with the added item as the API writes it (its
/// image URLs are signed alike by every server, which share the secret).
struct StoredChange: Codable {
    var kind: String
    var revision: Int?
    var index: Int?
    var itemID: GalleryItemID?
    var item: GalleryItem?
    var name: String?
    var deletedAt: String?

    init(_ change: GalleryChange) {
        kind = change.kind
        revision = change.revision
        switch change {
        case .added(_, let index, let item): (self.index, self.item) = (index, item)
        case .removed(_, let itemID): self.itemID = itemID
        case .moved(_, let itemID, let index): (self.itemID, self.index) = (itemID, index)
        case .renamed(_, let name): self.name = name
        case .deleted(_, let deletedAt): self.deletedAt = deletedAt
        case .created, .restored, .gone: break
        }
    }

    func encoded() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    static func decoded(_ text: String) throws -> GalleryChange {
        let stored = try JSONDecoder().decode(StoredChange.self, from: Data(text.utf8))
        let revision = stored.revision ?? 0
        switch stored.kind {
        case "added":
            if let index = stored.index, let item = stored.item {
                return .added(revision: revision, index: index, item: item)
            }
        case "removed":
            if let itemID = stored.itemID { return .removed(revision: revision, itemID: itemID) }
        case "moved":
            if let itemID = stored.itemID, let index = stored.index {
                return .moved(revision: revision, itemID: itemID, index: index)
            }
        case "renamed":
            if let name = stored.name { return .renamed(revision: revision, name: name) }
        case "deleted":
            if let deletedAt = stored.deletedAt { return .deleted(revision: revision, deletedAt: deletedAt) }
        case "restored": return .restored(revision: revision)
        case "gone": return .gone
        default: break
        }
        throw DecodingError.dataCorrupted(
            .init(codingPath: [], debugDescription: "a \(stored.kind) event without its fields"))
    }
}
