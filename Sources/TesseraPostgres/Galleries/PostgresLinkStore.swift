import Foundation
import PostgresNIO
import TesseraGalleries

/// Public and drop links in PostgreSQL (table `gallery_link`, migration 9): the shared engine of
/// `LinkStoring`, the same contract as SQLite's `SQLiteLinkStore` (one suite tests both). Openings, drops and the
/// hourly drop window are counted in the row, so every server sharing the database counts together.
public final class PostgresLinkStore: LinkStoring {
    let database: PostgresAppDatabase

    public init(database: PostgresAppDatabase) {
        self.database = database
    }

    private static let columns = """
        id, gallery_id, kind, slug, password_hash, expires_at, created_at, created_by, opens, last_opened_at,
        show_items, per_hour, drops
        """

    private typealias Row = (
        String, String, String, String, String?, Double?, Double, String, Int, Double?, Bool, Int, Int
    )

    public func insertLink(_ link: GalleryLink) async throws(GalleryError) {
        try await run {
            try await self.database.withTransaction { connection in
                var exists = false
                for try await _ in try await connection.query(
                    "SELECT 1 FROM gallery WHERE id = \(link.gallery.rawValue)", logger: .quiet
                ).decode(Int.self) {
                    exists = true
                }
                guard exists else { throw GalleryError.galleryNotFound(link.gallery.rawValue) }
                try await connection.query(
                    """
                    INSERT INTO gallery_link (id, gallery_id, kind, slug, password_hash, expires_at, created_at,
                        created_by, opens, last_opened_at, show_items, per_hour, drops)
                    VALUES (\(link.id.rawValue), \(link.gallery.rawValue), \(link.kind.rawValue), \(link.slug),
                        \(link.passwordHash), \(link.expiresAt?.timeIntervalSince1970),
                        \(link.createdAt.timeIntervalSince1970), \(link.createdBy), \(link.opens),
                        \(link.lastOpenedAt?.timeIntervalSince1970), \(link.showItems), \(link.perHour), \(link.drops))
                    """, logger: .quiet)
                return ()
            }
        }
    }

    public func links(of gallery: GalleryID) async throws(GalleryError) -> [GalleryLink] {
        try await fetch(
            "SELECT \(unescaped: Self.columns) FROM gallery_link WHERE gallery_id = \(gallery.rawValue) ORDER BY created_at DESC, id"
        )
    }

    public func link(id: LinkID) async throws(GalleryError) -> GalleryLink? {
        try await fetch("SELECT \(unescaped: Self.columns) FROM gallery_link WHERE id = \(id.rawValue)").first
    }

    public func link(slug: String) async throws(GalleryError) -> GalleryLink? {
        try await fetch(
            """
            SELECT \(unescaped: Self.columns) FROM gallery_link
            WHERE slug = \(slug) AND EXISTS (SELECT 1 FROM gallery g WHERE g.id = gallery_id AND g.deleted_at IS NULL)
            """
        ).first
    }

    public func deleteLink(id: LinkID) async throws(GalleryError) -> Bool {
        try await run {
            try await self.database.withConnection { connection in
                var deleted = false
                for try await _ in try await connection.query(
                    "DELETE FROM gallery_link WHERE id = \(id.rawValue) RETURNING id", logger: .quiet
                ).decode(String.self) {
                    deleted = true
                }
                return deleted
            }
        }
    }

    public func recordOpen(of id: LinkID, at moment: Date) async throws(GalleryError) {
        let now = moment.timeIntervalSince1970
        try await execute(
            "UPDATE gallery_link SET opens = opens + 1, last_opened_at = \(now) WHERE id = \(id.rawValue)")
    }

    /// One transaction that locks the link's row, so drops arriving at several servers at once take turns.
    public func takeDrop(of id: LinkID, perHour: Int, at moment: Date) async throws(GalleryError) -> Int? {
        let now = moment.timeIntervalSince1970
        return try await run {
            try await self.database.withTransaction { connection -> Int? in
                var window: DropWindow?
                for try await (start, count) in try await connection.query(
                    "SELECT drop_window_start, drop_window_count FROM gallery_link WHERE id = \(id.rawValue) FOR UPDATE",
                    logger: .quiet
                ).decode((Double?, Int).self) {
                    window = DropWindow(start: start, count: count)
                }
                guard let window else { return nil }
                let (next, retryAfter) = window.taking(perHour: perHour, at: now)
                if retryAfter == nil {
                    try await connection.query(
                        """
                        UPDATE gallery_link SET drop_window_start = \(next.start), drop_window_count = \(next.count)
                        WHERE id = \(id.rawValue)
                        """, logger: .quiet)
                }
                return retryAfter
            }
        }
    }

    public func recordDrop(of id: LinkID) async throws(GalleryError) {
        try await execute("UPDATE gallery_link SET drops = drops + 1 WHERE id = \(id.rawValue)")
    }

    public func items(holding hash: String, in gallery: GalleryID) async throws(GalleryError) -> [String] {
        try await run {
            try await self.database.withConnection { connection in
                var items: [String] = []
                for try await item in try await connection.query(
                    "SELECT item FROM gallery_item WHERE gallery_id = \(gallery.rawValue) AND image_hash = \(hash)",
                    logger: .quiet
                ).decode(String.self) {
                    items.append(item)
                }
                return items
            }
        }
    }

    // MARK: - Steps

    private func fetch(_ query: PostgresQuery) async throws(GalleryError) -> [GalleryLink] {
        try await run {
            try await self.database.withConnection { connection in
                var links: [GalleryLink] = []
                for try await row in try await connection.query(query, logger: .quiet).decode(Row.self) {
                    links.append(Self.link(row))
                }
                return links
            }
        }
    }

    private func execute(_ query: PostgresQuery) async throws(GalleryError) {
        try await run {
            try await self.database.withConnection { connection in
                try await connection.query(query, logger: .quiet)
                return ()
            }
        }
    }

    private static func link(_ row: Row) -> GalleryLink {
        let (
            id, gallery, kind, slug, hash, expiresAt, createdAt, createdBy, opens, lastOpenedAt, showItems, perHour,
            drops
        ) = row
        return GalleryLink(
            id: LinkID(unchecked: id), gallery: GalleryID(unchecked: gallery), kind: LinkKind(rawValue: kind) ?? .view,
            slug: slug, passwordHash: hash, expiresAt: expiresAt.map(Date.init(timeIntervalSince1970:)),
            createdAt: Date(timeIntervalSince1970: createdAt), createdBy: createdBy, opens: opens,
            lastOpenedAt: lastOpenedAt.map(Date.init(timeIntervalSince1970:)), showItems: showItems, perHour: perHour,
            drops: drops)
    }

    private func run<T>(_ body: () async throws -> T) async throws(GalleryError) -> T {
        try await GalleryError.fromStore(body)
    }
}
