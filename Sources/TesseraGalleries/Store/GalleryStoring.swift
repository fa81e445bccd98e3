import Foundation
import TesseraCore

/// Galleries and their items in a database, behind `GalleryService`: the contract every engine keeps (SQLite
/// here, `SQLiteGalleryStore`; PostgreSQL for several servers next, in TesseraPostgres).
///
/// Every change is one transaction that checks `ifRevision` (If-Match: `revisionMismatch` when it differs),
/// refuses galleries in Recently deleted (`galleryDeleted`, but for `restore` and `deletePermanently`),
/// bumps the gallery's revision, and once committed tells the `onChange` it was made with, in commit order.
/// Items keep their order by position; `index` is 0-based in the order after the change, past the end meaning
/// last. Errors are `GalleryError`s: `storage` for what the database itself throws.
public protocol GalleryStoring: Sendable {
    // MARK: Reading

    /// Galleries not deleted, most recently updated first; or those in Recently deleted, latest first. With
    /// `account`, only those it owns or is a member of (Recently deleted: only those it owns), each with its
    /// `owner` and the account's `role`; without, every gallery, with neither.
    func list(deleted: Bool, for account: String?) async throws(GalleryError) -> [Gallery]
    /// One gallery (deleted or not), with its items in order when `items` is true.
    func gallery(_ id: GalleryID, items: Bool) async throws(GalleryError) -> Gallery
    /// Revisions of these galleries now (missing ones left out), for event streams watching for outside changes.
    func revisions(of ids: [GalleryID]) async throws(GalleryError) -> [GalleryID: Int]
    /// Each item's stored image.
    func storedImages(of id: GalleryID) async throws(GalleryError) -> [GalleryItemID: StoredImage]
    /// Item `itemID` as it was added: what adding it again elsewhere needs.
    func image(of itemID: GalleryItemID, in id: GalleryID) async throws(GalleryError) -> NewGalleryImage
    /// Every stored image some item names.
    func referencedHashes() async throws(GalleryError) -> Set<String>
    /// For each of these items (`Item.id`, `source:nativeID`) that galleries not deleted hold: those galleries,
    /// most recently changed first, each once. Items no gallery holds are left out. With `account`, only the
    /// galleries it owns or is a member of.
    func galleries(holding itemIDs: [String], for account: String?) async throws(GalleryError)
        -> [String: [GalleryRef]]
    /// The gallery's revision and whether it is in Recently deleted: what a change checks before any
    /// download, without counting items or reading the cover (the default reads the whole summary).
    func state(of id: GalleryID) async throws(GalleryError) -> (revision: Int, deleted: Bool)

    // MARK: Changing galleries

    /// A new gallery of `owner` (an account id), or of nobody without accounts.
    func create(name: String, owner: String?) async throws(GalleryError) -> Gallery
    func rename(_ id: GalleryID, to name: String, ifRevision: Int?) async throws(GalleryError) -> Gallery
    /// To Recently deleted.
    func delete(_ id: GalleryID, ifRevision: Int?) async throws(GalleryError) -> Gallery
    func restore(_ id: GalleryID, ifRevision: Int?) async throws(GalleryError) -> Gallery
    /// Removes the gallery and its items; returns the image hashes no other item uses any more.
    func deletePermanently(_ id: GalleryID, ifRevision: Int?) async throws(GalleryError) -> Set<String>

    // MARK: Changing items

    func add(_ image: NewGalleryImage, to id: GalleryID, at index: Int?, ifRevision: Int?)
        async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int)
    /// Removes an item; returns the new revision. (Its image file is left for `GalleryService` to decide.)
    func remove(_ itemID: GalleryItemID, from id: GalleryID, ifRevision: Int?) async throws(GalleryError) -> Int
    func move(_ itemID: GalleryItemID, in id: GalleryID, to index: Int, ifRevision: Int?)
        async throws(GalleryError) -> (revision: Int, index: Int)

    // MARK: Picture hashes

    /// Every item of gallery `id` as the near-duplicate check reads it, in order: its id, its search result's
    /// id (read by the database from the stored JSON: no item is decoded) and its perceptual hash when kept
    /// (items added before hashes were kept, or whose hash could not be made, have none until `setPictureHash`).
    func pictures(of id: GalleryID) async throws(GalleryError) -> [GalleryPicture]
    /// Keeps `hash` with item `itemID` of gallery `id`; an item gone meanwhile is left alone. Not a change of
    /// the gallery: no revision, no event.
    func setPictureHash(_ hash: PerceptualHash, of itemID: GalleryItemID, in id: GalleryID)
        async throws(GalleryError)
    /// Up to `limit` items of any gallery (Recently deleted too) without a perceptual hash, by item id after
    /// `after`: what the start-up backfill hashes, one query a batch however many galleries there are.
    func unhashedPictures(after: GalleryItemID?, limit: Int) async throws(GalleryError) -> [UnhashedPicture]

    // MARK: Owners and members

    /// What `account` may do with gallery `id`: owner, or the role it was given as a member while the gallery
    /// is not deleted; `nil` when neither, or when there is no such gallery (the caller answers both alike).
    func access(of account: String, to id: GalleryID) async throws(GalleryError) -> GalleryAccess?
    /// The gallery's members by name (not its owner).
    func members(of id: GalleryID) async throws(GalleryError) -> [GalleryMember]
    /// Makes the account named `name` a member with `role`, or changes its role. Throws `accountNotFound`,
    /// `invalidMember` for the owner or the role `owner`.
    func setMember(named name: String, role: GalleryRole, in id: GalleryID) async throws(GalleryError)
    /// Ends the membership of the account named `name`; throws `memberNotFound` when it has none.
    func removeMember(named name: String, from id: GalleryID) async throws(GalleryError)
    /// Whether some gallery `account` may read (see `access`) holds an item whose stored copy is `hash`.
    func holdsImage(_ hash: String, visibleTo account: String) async throws(GalleryError) -> Bool
    /// Gives every gallery nobody owns to `account`; returns how many.
    func adoptOwnerless(by account: String) async throws(GalleryError) -> Int
    /// Hands every gallery `account` owns to `heir` (`nil`: nobody yet) in Recently deleted, and ends the
    /// account's memberships, in one transaction; returns how many galleries it owned.
    func handOver(from account: String, to heir: String?) async throws(GalleryError) -> Int
}

extension GalleryStoring {
    /// Every gallery, as without accounts.
    public func list(deleted: Bool) async throws(GalleryError) -> [Gallery] {
        try await list(deleted: deleted, for: nil)
    }

    /// A gallery nobody owns, as without accounts.
    public func create(name: String) async throws(GalleryError) -> Gallery {
        try await create(name: name, owner: nil)
    }

    public func galleries(holding itemIDs: [String]) async throws(GalleryError) -> [String: [GalleryRef]] {
        try await galleries(holding: itemIDs, for: nil)
    }
}

/// A gallery named where only which one matters: the galleries that hold an item.
public struct GalleryRef: Sendable, Hashable, Codable {
    public var id: GalleryID
    public var name: String

    public init(id: GalleryID, name: String) {
        self.id = id
        self.name = name
    }
}

extension GalleryRef {
    /// Rows of (item id, gallery id, gallery name), in the order wanted, as each item's galleries, each once.
    public static func grouped(_ rows: [(String, String, String)]) -> [String: [GalleryRef]] {
        var holding: [String: [GalleryRef]] = [:]
        for (item, gallery, name) in rows {
            let ref = GalleryRef(id: GalleryID(unchecked: gallery), name: name)
            if holding[item]?.contains(ref) == true { continue }
            holding[item, default: []].append(ref)
        }
        return holding
    }
}

/// A gallery item without a perceptual hash, with the content hash of its stored copy.
public struct UnhashedPicture: Sendable, Hashable {
    public var gallery: GalleryID
    public var item: GalleryItemID
    public var imageHash: String

    public init(gallery: GalleryID, item: GalleryItemID, imageHash: String) {
        (self.gallery, self.item, self.imageHash) = (gallery, item, imageHash)
    }
}

/// One item as the near-duplicate check reads it (`GalleryStoring.pictures(of:)`).
public struct GalleryPicture: Sendable, Hashable {
    public var id: GalleryItemID
    /// The item's `Item.id` as text (`source:nativeID`).
    public var itemID: String
    public var hash: PerceptualHash?

    public init(id: GalleryItemID, itemID: String, hash: PerceptualHash?) {
        self.id = id
        self.itemID = itemID
        self.hash = hash
    }
}

extension [GalleryPicture] {
    /// The hash kept with each picture that has one, by item.
    public var hashes: [GalleryItemID: PerceptualHash] {
        var hashes: [GalleryItemID: PerceptualHash] = [:]
        for picture in self { hashes[picture.id] = picture.hash }
        return hashes
    }
}

extension GalleryStoring {
    /// The perceptual hash kept with each item of gallery `id` that has one.
    public func pictureHashes(of id: GalleryID) async throws(GalleryError) -> [GalleryItemID: PerceptualHash] {
        try await pictures(of: id).hashes
    }
}

/// Makes the store `GalleryService` uses, given how to link stored images and whom to tell of each change.
public typealias GalleryStoreMaker =
    @Sendable (_ linker: any ImageLinking, _ onChange: @escaping @Sendable (GalleryID, GalleryChange) -> Void)
    -> any GalleryStoring

/// An image ready to become a gallery item: the item it comes from and its stored copy.
public struct NewGalleryImage: Sendable, Hashable {
    public var item: Item
    public var sourceURL: String?
    public var hash: String
    public var format: String
    public var size: Int
    public var width: Int
    public var height: Int
    /// The picture's perceptual hash, when it was made (kept with the item: near duplicates, docs/galleries.md).
    public var pictureHash: PerceptualHash?

    public init(
        item: Item, sourceURL: String?, hash: String, format: String, size: Int, width: Int, height: Int,
        pictureHash: PerceptualHash? = nil
    ) {
        self.item = item
        self.sourceURL = sourceURL
        self.hash = hash
        self.format = format
        self.size = size
        self.width = width
        self.height = height
        self.pictureHash = pictureHash
    }
}

extension NewGalleryImage {
    /// The item as both engines keep it: JSON with sorted keys, so equal items are equal text (written by
    /// `FastJSON`: `JSONEncoder`'s bytes in a fraction of the time, on every add's path).
    public func itemJSON() -> String {
        FastJSON.text(of: item)
    }
}

/// A gallery item's stored copy: the hash naming its file and its MIME type.
public struct StoredImage: Sendable, Hashable {
    public var hash: String
    public var format: String

    public init(hash: String, format: String) {
        self.hash = hash
        self.format = format
    }
}
