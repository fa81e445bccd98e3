import Foundation
import TesseraCore

/// A gallery as the API shows it. `items` only when asked for the whole gallery.
public struct Gallery: Sendable, Hashable, Codable {
    public var id: GalleryID
    public var name: String
    public var itemCount: Int
    public var cover: ImageRef?
    /// ISO 8601 times, as the API writes them.
    public var createdAt: String
    public var updatedAt: String
    public var deletedAt: String?
    public var revision: Int
    public var items: [GalleryItem]?
    /// With accounts only: the owner's name (`nil` for a gallery nobody owns yet) and the asker's role.
    public var owner: String?
    public var role: GalleryRole?

    public init(
        id: GalleryID, name: String, itemCount: Int, cover: ImageRef?, createdAt: String, updatedAt: String,
        deletedAt: String?, revision: Int, items: [GalleryItem]? = nil
    ) {
        self.id = id
        self.name = name
        self.itemCount = itemCount
        self.cover = cover
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
        self.revision = revision
        self.items = items
    }

    /// How many of its items are restricted (`GalleryItem.restricted`); 0 when read without its items.
    public var restrictedCount: Int { items?.count(where: \.restricted) ?? 0 }

    private enum CodingKeys: String, CodingKey {
        case id, name, itemCount, cover, createdAt, updatedAt, deletedAt, revision, items, owner, role
    }

    /// `cover` and `deletedAt` are written as `null` when absent (clients test them); `items`, `owner` and
    /// `role` are left out (without accounts there are none).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(itemCount, forKey: .itemCount)
        try container.encode(cover, forKey: .cover)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(deletedAt, forKey: .deletedAt)
        try container.encode(revision, forKey: .revision)
        try container.encodeIfPresent(items, forKey: .items)
        try container.encodeIfPresent(owner, forKey: .owner)
        try container.encodeIfPresent(role, forKey: .role)
    }
}

/// One image in a gallery: the item it was made from and its own stored copy.
public struct GalleryItem: Sendable, Hashable, Codable {
    public var id: GalleryItemID
    public var item: Item
    public var sourceURL: String?
    /// Bytes of the stored copy.
    public var size: Int
    public var image: StoredImageRefs
    public var addedAt: String

    private enum CodingKeys: String, CodingKey {
        case id, item, sourceURL, size, image, addedAt
    }

    private enum EncodingKeys: String, CodingKey {
        case id, item, restricted, sourceURL, size, image, addedAt
    }

    /// Whether its copy may not leave the gallery but by its owner's private export (`Item.isRestricted`).
    public var restricted: Bool { item.isRestricted }

    /// `sourceURL` is written as `null` for uploads; `restricted` is read from the item each time.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EncodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(item, forKey: .item)
        try container.encode(restricted, forKey: .restricted)
        try container.encode(sourceURL, forKey: .sourceURL)
        try container.encode(size, forKey: .size)
        try container.encode(image, forKey: .image)
        try container.encode(addedAt, forKey: .addedAt)
    }

    public init(id: GalleryItemID, item: Item, sourceURL: String?, size: Int, image: StoredImageRefs, addedAt: String) {
        self.id = id
        self.item = item
        self.sourceURL = sourceURL
        self.size = size
        self.image = image
        self.addedAt = addedAt
    }
}

extension FastJSON {
    /// A gallery item as its `Encodable` conformance writes it with sorted keys (a test compares the bytes):
    /// the answer to every add.
    public mutating func galleryItem(_ item: GalleryItem) {
        raw(#"{"addedAt":"#)
        string(item.addedAt)
        raw(#","id":"#)
        string(item.id.rawValue)
        raw(#","image":{"original":"#)
        image(item.image.original)
        raw(#","preview":"#)
        image(item.image.preview)
        raw(#","thumbnail":"#)
        image(item.image.thumbnail)
        raw(#"},"item":"#)
        self.item(item.item)
        raw(#","restricted":"#)
        raw(item.restricted ? "true" : "false")
        raw(#","size":"#)
        int(item.size)
        raw(#","sourceURL":"#)
        if let url = item.sourceURL { string(url) } else { raw("null") }
        raw("}")
    }
}

/// The stored copy's renditions, as signed image URLs.
public struct StoredImageRefs: Sendable, Hashable, Codable {
    public var thumbnail: ImageRef
    public var preview: ImageRef
    public var original: ImageRef

    public init(thumbnail: ImageRef, preview: ImageRef, original: ImageRef) {
        self.thumbnail = thumbnail
        self.preview = preview
        self.original = original
    }

    /// The stored copy `hash` (`width`×`height`) through the image proxy: `stored:<hash>` references,
    /// signed like every image URL, each variant with the size it comes out at.
    public init(hash: String, width: Int, height: Int, linker: any ImageLinking) {
        let reference = ImageReference.stored(hash: hash).string
        func ref(_ variant: ImageVariant) -> ImageRef {
            let size =
                variant.maxDimension.flatMap { Geometry.fit(width: width, height: height, maxSide: $0) }
                ?? (width, height)
            return ImageRef(url: linker.link(reference, variant: variant), width: size.width, height: size.height)
        }
        self.init(thumbnail: ref(.thumb), preview: ref(.preview), original: ref(.original))
    }
}

/// What one change did, for the event stream and the API's answer. `revision` is the gallery's after it.
public enum GalleryChange: Sendable, Hashable {
    case created(Gallery)
    case added(revision: Int, index: Int, item: GalleryItem)
    case removed(revision: Int, itemID: GalleryItemID)
    case moved(revision: Int, itemID: GalleryItemID, index: Int)
    case renamed(revision: Int, name: String)
    case deleted(revision: Int, deletedAt: String)
    case restored(revision: Int)
    case gone

    public var revision: Int? {
        switch self {
        case .created(let gallery): gallery.revision
        case .added(let revision, _, _), .removed(let revision, _), .moved(let revision, _, _),
            .renamed(let revision, _), .deleted(let revision, _), .restored(let revision):
            revision
        case .gone: nil
        }
    }

    /// The change's name, as events and metrics call it.
    public var kind: String {
        switch self {
        case .created: "created"
        case .added: "added"
        case .removed: "removed"
        case .moved: "moved"
        case .renamed: "renamed"
        case .deleted: "deleted"
        case .restored: "restored"
        case .gone: "gone"
        }
    }

    static let kinds = ["created", "added", "removed", "moved", "renamed", "deleted", "restored", "gone"]
}

/// Times as the API writes them: ISO 8601 in UTC, to the second.
public enum Timestamp {
    public static func text(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }
}
