import Foundation
import PostgresNIO
import TesseraCore
import TesseraGalleries

extension PostgresGalleryStore {
    public func list(deleted: Bool, for account: String?) async throws(GalleryError) -> [Gallery] {
        let linker = linker
        guard let account else {
            return try await read { connection in
                let rows = try await GalleryRow.all(
                    deleted
                        ? connection.query(
                            "SELECT \(unescaped: GalleryRow.columns) FROM gallery WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC",
                            logger: .quiet)
                        : connection.query(
                            "SELECT \(unescaped: GalleryRow.columns) FROM gallery WHERE deleted_at IS NULL ORDER BY updated_at DESC, created_at DESC",
                            logger: .quiet))
                return try await Self.summaries(rows, connection, linker: linker)
            }
        }
        return try await read { connection in
            let condition =
                deleted
                ? "g.owner_id = $1 AND g.deleted_at IS NOT NULL ORDER BY g.deleted_at DESC"
                : "(g.owner_id = $1 OR m.account_id IS NOT NULL) AND g.deleted_at IS NULL ORDER BY g.updated_at DESC, g.created_at DESC"
            var bindings = PostgresBindings()
            bindings.append(account)
            let query = PostgresQuery(
                unsafeSQL: """
                    SELECT g.id, g.name, g.created_at, g.updated_at, g.deleted_at, g.revision, a.name,
                        CASE WHEN g.owner_id = $1 THEN 'owner' ELSE m.role END
                    FROM gallery g
                    LEFT JOIN account a ON a.id = g.owner_id
                    LEFT JOIN gallery_member m ON m.gallery_id = g.id AND m.account_id = $1
                    WHERE \(condition)
                    """, binds: bindings)
            var rows: [GalleryRow] = []
            var access: [(String?, String?)] = []
            for try await row in try await connection.query(query, logger: .quiet).decode(
                (String, String, Double, Double, Double?, Int, String?, String?).self)
            {
                rows.append(
                    GalleryRow(
                        id: row.0, name: row.1, createdAt: row.2, updatedAt: row.3, deletedAt: row.4, revision: row.5))
                access.append((row.6, row.7))
            }
            var galleries = try await Self.summaries(rows, connection, linker: linker)
            for index in galleries.indices {
                galleries[index].owner = access[index].0
                galleries[index].role = access[index].1.flatMap(GalleryRole.init(rawValue:))
            }
            return galleries
        }
    }

    public func gallery(_ id: GalleryID, items: Bool) async throws(GalleryError) -> Gallery {
        let linker = linker
        return try await read { connection in
            let row = try await Self.galleryRow(id, connection, lock: false)
            var gallery = try await Self.summary(row, connection, linker: linker)
            if items {
                gallery.items = try await GalleryItemRow.all(
                    connection.query(
                        "SELECT \(unescaped: GalleryItemRow.columns) FROM gallery_item WHERE gallery_id = \(id.rawValue) ORDER BY position",
                        logger: .quiet)
                ).map { try Self.item($0, linker: linker) }
            }
            return gallery
        }
    }

    public func galleries(holding itemIDs: [String], for account: String?) async throws(GalleryError)
        -> [String: [GalleryRef]]
    {
        guard !itemIDs.isEmpty else { return [:] }
        return try await read { connection in
            var rows: [(String, String, String)] = []
            // With an account, only galleries it may read (owned, or shared with it); `NULL` means any.
            for try await row in try await connection.query(
                """
                SELECT i.item::jsonb ->> 'id', g.id, g.name
                FROM gallery_item i JOIN gallery g ON g.id = i.gallery_id
                WHERE g.deleted_at IS NULL AND (i.item::jsonb ->> 'id') = ANY(\(itemIDs))
                  AND (\(account)::text IS NULL OR g.owner_id = \(account) OR EXISTS (
                      SELECT 1 FROM gallery_member m WHERE m.gallery_id = g.id AND m.account_id = \(account)))
                ORDER BY g.updated_at DESC, g.id
                """, logger: .quiet
            ).decode((String, String, String).self) {
                rows.append(row)
            }
            return GalleryRef.grouped(rows)
        }
    }

    public func revisions(of ids: [GalleryID]) async throws(GalleryError) -> [GalleryID: Int] {
        guard !ids.isEmpty else { return [:] }
        let keys = ids.map(\.rawValue)
        return try await read { connection in
            var revisions: [GalleryID: Int] = [:]
            for try await (id, revision) in try await connection.query(
                "SELECT id, revision FROM gallery WHERE id = ANY(\(keys))", logger: .quiet
            ).decode((String, Int).self) {
                revisions[GalleryID(unchecked: id)] = revision
            }
            return revisions
        }
    }

    public func storedImages(of id: GalleryID) async throws(GalleryError) -> [GalleryItemID: StoredImage] {
        try await read { connection in
            var images: [GalleryItemID: StoredImage] = [:]
            for try await (item, hash, format) in try await connection.query(
                "SELECT id, image_hash, image_format FROM gallery_item WHERE gallery_id = \(id.rawValue)",
                logger: .quiet
            ).decode((String, String, String).self) {
                images[GalleryItemID(unchecked: item)] = StoredImage(hash: hash, format: format)
            }
            return images
        }
    }

    public func image(of itemID: GalleryItemID, in id: GalleryID) async throws(GalleryError) -> NewGalleryImage {
        try await read { connection in
            let row = try await Self.itemRow(itemID, of: id, connection)
            return NewGalleryImage(
                item: try JSONDecoder().decode(Item.self, from: Data(row.item.utf8)), sourceURL: row.sourceURL,
                hash: row.imageHash, format: row.imageFormat, size: row.imageSize, width: row.width,
                height: row.height)
        }
    }

    public func referencedHashes() async throws(GalleryError) -> Set<String> {
        try await read { connection in
            var hashes: Set<String> = []
            for try await hash in try await connection.query(
                "SELECT DISTINCT image_hash FROM gallery_item", logger: .quiet
            ).decode(String.self) {
                hashes.insert(hash)
            }
            return hashes
        }
    }

    // MARK: - Rows to API values

    /// A gallery's revision and whether it is in Recently deleted: one row read (the checks before an add),
    /// where the whole summary would take three queries.
    public func state(of id: GalleryID) async throws(GalleryError) -> (revision: Int, deleted: Bool) {
        try await read { connection in
            let row = try await Self.galleryRow(id, connection, lock: false)
            return (row.revision, row.deletedAt != nil)
        }
    }

    static func galleryRow(_ id: GalleryID, _ connection: PostgresConnection, lock: Bool) async throws -> GalleryRow {
        let rows = try await GalleryRow.all(
            connection.query(
                "SELECT \(unescaped: GalleryRow.columns) FROM gallery WHERE id = \(id.rawValue)\(unescaped: lock ? " FOR UPDATE" : "")",
                logger: .quiet))
        guard let row = rows.first else { throw GalleryError.galleryNotFound(id.rawValue) }
        return row
    }

    static func itemRow(_ itemID: GalleryItemID, of id: GalleryID, _ connection: PostgresConnection) async throws
        -> GalleryItemRow
    {
        let rows = try await GalleryItemRow.all(
            connection.query(
                "SELECT \(unescaped: GalleryItemRow.columns) FROM gallery_item WHERE gallery_id = \(id.rawValue) AND id = \(itemID.rawValue)",
                logger: .quiet))
        guard let row = rows.first else { throw GalleryError.itemNotFound(itemID.rawValue) }
        return row
    }

    /// Each gallery of `rows` with its item count and cover, in `rows`' order: two queries however many
    /// galleries there are (a list of galleries is not one round trip per gallery).
    static func summaries(_ rows: [GalleryRow], _ connection: PostgresConnection, linker: any ImageLinking)
        async throws -> [Gallery]
    {
        guard !rows.isEmpty else { return [] }
        let ids = rows.map(\.id)
        var counts: [String: Int] = [:]
        for try await (id, count) in try await connection.query(
            "SELECT gallery_id, count(*) FROM gallery_item WHERE gallery_id = ANY(\(ids)) GROUP BY gallery_id",
            logger: .quiet
        ).decode((String, Int).self) {
            counts[id] = count
        }
        let firsts = try await GalleryItemRow.all(
            connection.query(
                """
                SELECT DISTINCT ON (gallery_id) \(unescaped: GalleryItemRow.columns) FROM gallery_item
                WHERE gallery_id = ANY(\(ids)) ORDER BY gallery_id, position
                """,
                logger: .quiet))
        let covers = Dictionary(uniqueKeysWithValues: firsts.map { ($0.galleryID, $0) })
        return rows.map { row in
            Gallery(
                id: GalleryID(unchecked: row.id), name: row.name, itemCount: counts[row.id] ?? 0,
                cover: covers[row.id].map { refs($0, linker: linker).thumbnail },
                createdAt: Timestamp.text(row.createdAt), updatedAt: Timestamp.text(row.updatedAt),
                deletedAt: row.deletedAt.map(Timestamp.text), revision: row.revision)
        }
    }

    /// One gallery's summary (`summaries` of one row).
    static func summary(_ row: GalleryRow, _ connection: PostgresConnection, linker: any ImageLinking) async throws
        -> Gallery
    {
        try await summaries([row], connection, linker: linker)[0]
    }

    static func item(_ row: GalleryItemRow, linker: any ImageLinking) throws -> GalleryItem {
        let item = try JSONDecoder().decode(Item.self, from: Data(row.item.utf8))
        return GalleryItem(
            id: GalleryItemID(unchecked: row.id), item: item, sourceURL: row.sourceURL, size: row.imageSize,
            image: refs(row, linker: linker), addedAt: Timestamp.text(row.addedAt))
    }

    static func refs(_ row: GalleryItemRow, linker: any ImageLinking) -> StoredImageRefs {
        StoredImageRefs(hash: row.imageHash, width: row.width, height: row.height, linker: linker)
    }
}
