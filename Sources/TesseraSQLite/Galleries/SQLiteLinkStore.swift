import Foundation
import GRDB
import TesseraCore
import TesseraGalleries

/// Public and drop links in SQLite (table `galleryLink`, migration `v7-links`): the embedded engine of
/// `LinkStoring`. Writes go through `AppDatabase.write`, one transaction each; reads straight to the writer.
public final class SQLiteLinkStore: LinkStoring {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func insertLink(_ link: GalleryLink) async throws(GalleryError) {
        try await run {
            try await self.database.write { db in
                guard try GalleryRecord.exists(db, key: link.gallery.rawValue) else {
                    throw GalleryError.galleryNotFound(link.gallery.rawValue)
                }
                try db.execute(
                    sql: """
                        INSERT INTO galleryLink (id, galleryId, kind, slug, passwordHash, expiresAt, createdAt,
                            createdBy, opens, lastOpenedAt, showItems, perHour, drops)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        link.id.rawValue, link.gallery.rawValue, link.kind.rawValue, link.slug, link.passwordHash,
                        link.expiresAt?.timeIntervalSince1970, link.createdAt.timeIntervalSince1970, link.createdBy,
                        link.opens, link.lastOpenedAt?.timeIntervalSince1970, link.showItems, link.perHour,
                        link.drops,
                    ])
            }
        }
    }

    public func links(of gallery: GalleryID) async throws(GalleryError) -> [GalleryLink] {
        try await run {
            try await self.database.writer.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT * FROM galleryLink WHERE galleryId = ? ORDER BY createdAt DESC, id",
                    arguments: [gallery.rawValue]
                ).map(Self.link)
            }
        }
    }

    public func link(id: LinkID) async throws(GalleryError) -> GalleryLink? {
        try await run {
            try await self.database.writer.read { db in
                try Row.fetchOne(db, sql: "SELECT * FROM galleryLink WHERE id = ?", arguments: [id.rawValue])
                    .map(Self.link)
            }
        }
    }

    public func link(slug: String) async throws(GalleryError) -> GalleryLink? {
        try await run {
            try await self.database.writer.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT l.* FROM galleryLink l JOIN gallery g ON g.id = l.galleryId
                        WHERE l.slug = ? AND g.deletedAt IS NULL
                        """, arguments: [slug]
                ).map(Self.link)
            }
        }
    }

    public func deleteLink(id: LinkID) async throws(GalleryError) -> Bool {
        try await run {
            try await self.database.write { db in
                try db.execute(sql: "DELETE FROM galleryLink WHERE id = ?", arguments: [id.rawValue])
                return db.changesCount > 0
            }
        }
    }

    public func recordOpen(of id: LinkID, at moment: Date) async throws(GalleryError) {
        try await run {
            try await self.database.write { db in
                try db.execute(
                    sql: "UPDATE galleryLink SET opens = opens + 1, lastOpenedAt = ? WHERE id = ?",
                    arguments: [moment.timeIntervalSince1970, id.rawValue])
            }
        }
    }

    public func takeDrop(of id: LinkID, perHour: Int, at moment: Date) async throws(GalleryError) -> Int? {
        let now = moment.timeIntervalSince1970
        return try await run {
            try await self.database.write { db -> Int? in
                guard
                    let row = try Row.fetchOne(
                        db, sql: "SELECT dropWindowStart, dropWindowCount FROM galleryLink WHERE id = ?",
                        arguments: [id.rawValue])
                else { return nil }
                let window = DropWindow(start: row["dropWindowStart"], count: row["dropWindowCount"])
                let (next, retryAfter) = window.taking(perHour: perHour, at: now)
                if retryAfter == nil {
                    try db.execute(
                        sql: "UPDATE galleryLink SET dropWindowStart = ?, dropWindowCount = ? WHERE id = ?",
                        arguments: [next.start, next.count, id.rawValue])
                }
                return retryAfter
            }
        }
    }

    public func recordDrop(of id: LinkID) async throws(GalleryError) {
        try await run {
            try await self.database.write { db in
                try db.execute(sql: "UPDATE galleryLink SET drops = drops + 1 WHERE id = ?", arguments: [id.rawValue])
            }
        }
    }

    public func items(holding hash: String, in gallery: GalleryID) async throws(GalleryError) -> [String] {
        try await run {
            try await self.database.writer.read { db in
                try String.fetchAll(
                    db, sql: "SELECT item FROM galleryItem WHERE galleryId = ? AND imageHash = ?",
                    arguments: [gallery.rawValue, hash])
            }
        }
    }

    static func link(_ row: Row) -> GalleryLink {
        GalleryLink(
            id: LinkID(unchecked: row["id"]), gallery: GalleryID(unchecked: row["galleryId"]),
            kind: LinkKind(rawValue: row["kind"]) ?? .view, slug: row["slug"], passwordHash: row["passwordHash"],
            expiresAt: (row["expiresAt"] as Double?).map(Date.init(timeIntervalSince1970:)),
            createdAt: Date(timeIntervalSince1970: row["createdAt"]), createdBy: row["createdBy"], opens: row["opens"],
            lastOpenedAt: (row["lastOpenedAt"] as Double?).map(Date.init(timeIntervalSince1970:)),
            showItems: row["showItems"], perHour: row["perHour"], drops: row["drops"])
    }

    func run<T>(_ body: () async throws -> T) async throws(GalleryError) -> T {
        try await GalleryError.fromStore(body)
    }
}
