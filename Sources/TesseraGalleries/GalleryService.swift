import Foundation
import Logging
import Metrics
import Synchronization
import TesseraCore

/// The one door to galleries, for the server and the CLI alike: reading, changing and watching them, adding
/// images (see `+Adding`) and exporting them. The store, the image files and the event fan-out behind it
/// are this module's own.
public final class GalleryService: Sendable {
    let store: any GalleryStoring
    /// Public and drop links (`+Links`).
    let links: any LinkStoring
    let files: GalleryImageFiles
    let events: GalleryEvents
    /// Changes of every server sharing the database, when there are several (see `GalleryEventFeed`).
    let feed: (any GalleryEventFeed)?
    /// Search results' images, their signed addresses checked once (the image proxy).
    let images: any ImageReading
    /// URL imports (the guarded fetcher).
    let fetcher: any ImageAddressFetching
    /// Every image is looked at before it is kept (libvips).
    let inspector: any ImageInspecting
    let linker: any ImageLinking
    let logger: Logger
    /// `tessera_gallery_changes_total` by kind.
    let changes: [String: Counter]

    /// Galleries in the store `store` makes (SQLite or PostgreSQL), told of every change so event streams hear it;
    /// or, given a `feed`, event streams hear the feed instead: every server's changes, this one's included.
    /// Their public and drop links in `links`, on the same engine.
    /// Event streams re-check their watcher's access every `heartbeat` (`TESSERA_HEARTBEAT`).
    public init(
        store makeStore: GalleryStoreMaker, links: any LinkStoring, feed: (any GalleryEventFeed)? = nil,
        files: GalleryImageFiles,
        images: any ImageReading, fetcher: any ImageAddressFetching, inspector: any ImageInspecting,
        linker: any ImageLinking,
        logger: Logger, metrics: any MetricsFactory = NOOPMetricsHandler.instance, heartbeat: Duration = .seconds(15)
    ) {
        let changes = Dictionary(
            uniqueKeysWithValues: GalleryChange.kinds.map { kind in
                (kind, Counter(label: "tessera_gallery_changes_total", dimensions: [("kind", kind)], factory: metrics))
            })
        self.changes = changes
        // The store tells the events of each change, and the events' poller asks the store: one of the two is
        // handed over once both exist. Every change but a creation is published (nobody can watch a gallery
        // before it exists): `create` counts that one itself.
        // With a feed, this server's changes come back through it in their place among the others' (told here
        // as well, one of two would arrive out of order).
        let relay = ChangeRelay()
        let store = makeStore(linker) { id, change in
            changes[change.kind]?.increment()
            if feed == nil { relay.send(id, change) }
        }
        let poll = Duration.milliseconds(500)
        let events = GalleryEvents(
            interval: poll, heartbeatEvery: max(1, Int((heartbeat / poll).rounded(.up))),
            recentLimit: feed == nil ? 2048 : 0,
            subscribers: Meter(label: "tessera_gallery_event_subscribers", factory: metrics),
            revisions: { ids in (try? await store.revisions(of: ids)) ?? [:] })
        relay.connect(events)
        feed?.deliver { id, change in events.publish(id, change) }
        self.events = events
        self.feed = feed
        self.store = store
        self.links = links
        self.files = files
        self.images = images
        self.fetcher = fetcher
        self.inspector = inspector
        self.linker = linker
        self.logger = logger
    }

    // MARK: - Reading

    /// Galleries not deleted, most recently updated first; or those in Recently deleted, latest first. An
    /// account sees those it owns and those shared with it (Recently deleted: its own), each with `owner` and
    /// `role`.
    public func list(deleted: Bool = false, by viewer: GalleryViewer) async throws(GalleryError) -> [Gallery] {
        if case .link = viewer { return [] }
        return try await store.list(deleted: deleted, for: viewer.accountID)
    }

    /// One gallery with its items in order.
    public func gallery(_ id: GalleryID, by viewer: GalleryViewer) async throws(GalleryError) -> Gallery {
        let access = try await authorize(id, viewer, .read)
        return Self.decorated(try await store.gallery(id), access)
    }

    /// The gallery `text` names (without its items): an id, else a name, exact but for case. A name matches
    /// galleries in Recently deleted only when no other gallery has it (a change then says what to do).
    /// Throws `galleryNotFound(text)` or `ambiguousName(name, candidates:)`.
    /// The galleries (not deleted) the viewer may read that hold each of these items, by `Item.id`; items in
    /// none are left out.
    public func galleries(holding itemIDs: [String], by viewer: GalleryViewer) async throws(GalleryError)
        -> [String: [GalleryRef]]
    {
        if case .link = viewer { return [:] }
        return try await store.galleries(holding: itemIDs, for: viewer.accountID)
    }

    public func find(_ text: String) async throws(GalleryError) -> Gallery {
        if let id = GalleryID(text) {
            do throws(GalleryError) {
                return try await store.gallery(id, items: false)
            } catch .galleryNotFound {
                // No gallery has this id: it may still be a name.
            }
        }
        var matches = Self.named(text, in: try await store.list(deleted: false))
        if matches.isEmpty { matches = Self.named(text, in: try await store.list(deleted: true)) }
        return try Self.one(of: matches, named: text)
    }

    /// The galleries among `galleries` that `text` names: exact but for case and surrounding spaces. With
    /// `one(of:named:)`, what a name means here and in the CLI's `--server` form, which asks a server.
    public static func named(_ text: String, in galleries: [Gallery]) -> [Gallery] {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return galleries.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The one gallery of `matches` (from `named(_:in:)`), else `galleryNotFound(text)` or `ambiguousName`.
    public static func one(of matches: [Gallery], named text: String) throws(GalleryError) -> Gallery {
        switch matches.count {
        case 0: throw .galleryNotFound(text)
        case 1: return matches[0]
        default: throw .ambiguousName(text.trimmingCharacters(in: .whitespacesAndNewlines), candidates: matches)
        }
    }

    /// The live events of gallery `id`, from the revision after `lastEventID` (a client reconnecting says
    /// which it has) or from a snapshot. Throws `galleryNotFound` at once rather than giving an empty stream.
    public func events(of id: GalleryID, lastEventID: Int?, by viewer: GalleryViewer) async throws(GalleryError)
        -> GalleryEventStream
    {
        try await authorize(id, viewer, .read)
        let known = try await store.gallery(id, items: false).revision
        // Subscribed before the stream decides on its first snapshot (see `GalleryEventStream`).
        let (messages, remembered) = events.subscribe(id, knownRevision: known, since: lastEventID)
        var missed = remembered
        // Read after subscribing, so no change falls between the two (one in both is told once).
        if let feed, let lastEventID { missed = try await feed.changes(of: id, after: lastEventID) }
        let store = store
        // With accounts, the same check again on every heartbeat and whenever who may read it changes.
        var check: (@Sendable () async throws(GalleryError) -> Void)?
        if viewer.accountID != nil {
            check = { [self] () throws(GalleryError) in _ = try await authorize(id, viewer, .read) }
        }
        return GalleryEventStream(
            messages: messages, lastEventID: lastEventID, missed: missed,
            read: { items throws(GalleryError) in try await store.gallery(id, items: items) }, check: check)
    }

    // MARK: - Changing galleries

    /// A new gallery, owned by the viewer's account (with accounts).
    public func create(name: String, by viewer: GalleryViewer) async throws(GalleryError) -> Gallery {
        if case .link(let grant) = viewer { throw .galleryNotFound(grant.gallery.rawValue) }
        let gallery = try await store.create(name: name, owner: viewer.accountID)
        changes["created"]?.increment()
        guard let account = viewer.accountID else { return gallery }
        return Self.decorated(gallery, try await store.access(of: account, to: gallery.id))
    }

    /// Owners and editors.
    public func rename(_ id: GalleryID, to name: String, ifRevision: Int? = nil, by viewer: GalleryViewer)
        async throws(GalleryError) -> Gallery
    {
        let access = try await authorize(id, viewer, .edit)
        return Self.decorated(try await store.rename(id, to: name, ifRevision: ifRevision), access)
    }

    /// Moves the gallery to Recently deleted (its owner only).
    public func delete(_ id: GalleryID, ifRevision: Int? = nil, by viewer: GalleryViewer) async throws(GalleryError)
        -> Gallery
    {
        let access = try await authorize(id, viewer, .own)
        return Self.decorated(try await store.delete(id, ifRevision: ifRevision), access)
    }

    /// Brings a gallery back from Recently deleted (its owner only).
    public func restore(_ id: GalleryID, ifRevision: Int? = nil, by viewer: GalleryViewer)
        async throws(GalleryError) -> Gallery
    {
        let access = try await authorize(id, viewer, .own)
        return Self.decorated(try await store.restore(id, ifRevision: ifRevision), access)
    }

    /// Deletes the gallery for good, with the image copies no other gallery uses (its owner only).
    public func deletePermanently(_ id: GalleryID, ifRevision: Int? = nil, by viewer: GalleryViewer)
        async throws(GalleryError)
    {
        try await authorize(id, viewer, .own)
        let unused = try await store.deletePermanently(id, ifRevision: ifRevision)
        let files = files
        _ = try? await files.blocking { files.remove(hashes: unused) }
    }

    // MARK: - Changing items

    /// Removes an item. Its stored copy stays until the next start even when nothing uses it any more, so
    /// an Undo (adding the same item again, from that copy) still works; `collectGarbage` removes it then.
    public func remove(_ itemID: GalleryItemID, from id: GalleryID, ifRevision: Int? = nil, by viewer: GalleryViewer)
        async throws(GalleryError) -> Int
    {
        try await authorize(id, viewer, .edit)
        return try await store.remove(itemID, from: id, ifRevision: ifRevision)
    }

    /// Moves an item to `index` in the order after the move (past the end: last).
    public func move(
        _ itemID: GalleryItemID, in id: GalleryID, to index: Int, ifRevision: Int? = nil, by viewer: GalleryViewer
    ) async throws(GalleryError) -> (revision: Int, index: Int) {
        try await authorize(id, viewer, .edit)
        return try await store.move(itemID, in: id, to: index, ifRevision: ifRevision)
    }

    /// Adds a copy of item `itemID` of gallery `source` to gallery `id`, sharing its stored image (nothing
    /// is fetched or checked again).
    public func copy(
        _ itemID: GalleryItemID, of source: GalleryID, to id: GalleryID, at index: Int? = nil,
        ifRevision: Int? = nil, by viewer: GalleryViewer
    ) async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int) {
        try await authorize(source, viewer, .read)
        try await authorize(id, viewer, .edit)
        let image = try await store.image(of: itemID, in: source)
        return try await store.add(image, to: id, at: index, ifRevision: ifRevision)
    }

    // MARK: - Upkeep

    /// Deletes image files no item names: what a crash between writing a file and its row leaves.
    public func collectGarbage() async {
        do {
            let removed = files.removeUnreferenced(keeping: try await store.referencedHashes())
            if removed > 0 {
                logger.info("gallery images: removed unreferenced files", metadata: ["count": "\(removed)"])
            }
        } catch {
            logger.warning("gallery images: could not collect unreferenced files", metadata: ["error": "\(error)"])
        }
    }
}

/// Passes the store's changes on to the events, which are made after the store.
private final class ChangeRelay: Sendable {
    private let events = Mutex<GalleryEvents?>(nil)

    func connect(_ events: GalleryEvents) {
        self.events.withLock { $0 = events }
    }

    func send(_ id: GalleryID, _ change: GalleryChange) {
        events.withLock { $0 }?.publish(id, change)
    }
}

extension GalleryStoring {
    /// One gallery with its items in order.
    func gallery(_ id: GalleryID) async throws(GalleryError) -> Gallery {
        try await gallery(id, items: true)
    }
}
