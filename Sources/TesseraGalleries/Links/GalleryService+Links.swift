import Foundation
import TesseraCore

/// Public and drop links (docs/accounts.md, "Public and drop links"): the owner makes, lists and revokes them;
/// a visitor's request is resolved to its link here and then goes through the gallery calls as a
/// `GalleryViewer.link`, so `authorize` makes the one check. Passwords are hashed and checked by the caller
/// (the accounts' bcrypt and back-off); this side keeps only the hash.
extension GalleryService {
    /// A link as asked for, checked by the caller: the password already hashed, the expiry in the future.
    public struct NewLink: Sendable {
        public var kind: LinkKind
        public var passwordHash: String?
        public var expiresAt: Date?
        public var showItems: Bool
        public var perHour: Int

        public init(kind: LinkKind, passwordHash: String?, expiresAt: Date?, showItems: Bool, perHour: Int) {
            self.kind = kind
            self.passwordHash = passwordHash
            self.expiresAt = expiresAt
            self.showItems = showItems
            self.perHour = perHour
        }
    }

    // MARK: - The owner's

    /// Makes a link to gallery `id` (its owner only; not while it is in Recently deleted).
    public func createLink(_ new: NewLink, in id: GalleryID, at moment: Date, by viewer: GalleryViewer)
        async throws(GalleryError) -> GalleryLink
    {
        guard case .account(let account) = viewer else { throw .galleryNotFound(id.rawValue) }
        try await authorizeOwner(id, viewer)
        if try await store.state(of: id).deleted { throw .galleryDeleted }
        let link = GalleryLink(
            id: .random(), gallery: id, kind: new.kind, slug: GalleryLink.randomSlug(), passwordHash: new.passwordHash,
            expiresAt: new.expiresAt, createdAt: moment, createdBy: account,
            showItems: new.kind == .drop && new.showItems, perHour: new.perHour)
        try await links.insertLink(link)
        return link
    }

    /// The gallery's links, newest first (its owner only).
    public func links(of id: GalleryID, by viewer: GalleryViewer) async throws(GalleryError) -> [GalleryLink] {
        guard case .account = viewer else { throw .galleryNotFound(id.rawValue) }
        try await authorizeOwner(id, viewer)
        return try await links.links(of: id)
    }

    /// How many of the gallery's items are restricted (`Item.isRestricted`): a link shows them as cards, never
    /// their pictures, and its owner is told how many (its owner only, as its links).
    public func restrictedCount(of id: GalleryID, by viewer: GalleryViewer) async throws(GalleryError) -> Int {
        guard case .account = viewer else { throw .galleryNotFound(id.rawValue) }
        try await authorizeOwner(id, viewer)
        return try await store.gallery(id).restrictedCount
    }

    /// Revokes a link of a gallery the viewer owns; any other link, or none, is `link(.notFound)`.
    public func revokeLink(_ linkID: LinkID, by viewer: GalleryViewer) async throws(GalleryError) {
        guard case .account = viewer, let link = try await links.link(id: linkID) else { throw .link(.notFound) }
        do {
            try await authorizeOwner(link.gallery, viewer)
        } catch .galleryNotFound, .readOnly, .ownerOnly {
            throw .link(.notFound)
        }
        guard try await links.deleteLink(id: linkID) else { throw .link(.notFound) }
    }

    /// Links are the owner's alone: an editor or a viewer is told so (`ownerOnly`), anyone else not found.
    private func authorizeOwner(_ id: GalleryID, _ viewer: GalleryViewer) async throws(GalleryError) {
        do {
            try await authorize(id, viewer, .own)
        } catch .readOnly {
            throw .ownerOnly
        }
    }

    // MARK: - A visitor's

    /// The link `slug` names for a visitor at `moment`: `notFound` for no such slug (or a gallery in Recently
    /// deleted), `expired` once its expiry has passed. Its password is the caller's to check.
    public func link(slug: String, at moment: Date) async throws(GalleryError) -> GalleryLink {
        guard GalleryLink.isSlug(slug), let link = try await links.link(slug: slug) else { throw .link(.notFound) }
        guard !link.isExpired(at: moment) else { throw .link(.expired) }
        return link
    }

    /// What a visitor through `link` sees, counting the opening: the gallery with its items in the owner's
    /// order when the link shows them, else without.
    public func openShared(_ link: GalleryLink, at moment: Date) async throws(GalleryError) -> Gallery {
        let gallery = try await shared(link)
        try await links.recordOpen(of: link.id, at: moment)
        return gallery
    }

    /// The gallery as `openShared` shows it, without counting an opening (the credits).
    public func shared(_ link: GalleryLink) async throws(GalleryError) -> Gallery {
        let gallery: Gallery
        do {
            gallery = try await store.gallery(link.gallery, items: link.showsItems)
        } catch .galleryNotFound {
            throw .link(.notFound)
        }
        guard gallery.deletedAt == nil else { throw .link(.notFound) }
        return gallery
    }

    /// The credits of the link's gallery, when the link shows its items (`link(.itemsHidden)` when not).
    public func sharedCredits(_ link: GalleryLink) async throws(GalleryError) -> (gallery: Gallery, credits: Credits) {
        guard link.showsItems else { throw .link(.itemsHidden) }
        do {
            return try await credits(link.gallery, by: .link(LinkGrant(link)))
        } catch .galleryNotFound {
            throw .link(.notFound)
        }
    }

    /// Takes one of a drop link's hourly drops before an image is fetched or read: `link(.readOnly)` for a
    /// view link, `link(.rateLimited)` over its rate.
    public func takeDrop(through link: GalleryLink, at moment: Date) async throws(GalleryError) {
        guard link.kind == .drop else { throw .link(.readOnly) }
        if let retryAfter = try await links.takeDrop(of: link.id, perHour: link.perHour, at: moment) {
            throw .link(.rateLimited(retryAfter: retryAfter))
        }
    }

    /// Counts an image added through a drop link.
    public func recordDrop(through link: GalleryLink) async throws(GalleryError) {
        try await links.recordDrop(of: link.id)
    }
}
