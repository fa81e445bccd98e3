import Foundation
import TesseraCore

/// Who may do what with a gallery: the one check, made here for every call (docs/accounts.md, "Owners and
/// collaborators"). Without accounts everyone may do everything. With accounts, a gallery the account neither
/// owns nor was given a role in is `galleryNotFound`, the answer a gallery that does not exist gets, so ids
/// reveal nothing; a role too small for the step is `readOnly` (a viewer) or `ownerOnly` (an editor).
extension GalleryService {
    /// Checks that `viewer` may take a step needing `need` on gallery `id`; the account's access, if any.
    @discardableResult
    func authorize(_ id: GalleryID, _ viewer: GalleryViewer, _ need: GalleryRole.Need) async throws(GalleryError)
        -> GalleryAccess?
    {
        if case .link(let grant) = viewer {
            try await authorize(id, grant, need)
            return nil
        }
        guard case .account(let account) = viewer else { return nil }
        guard let access = try await store.access(of: account, to: id) else { throw .galleryNotFound(id.rawValue) }
        guard access.role.grants >= need else { throw access.role == .viewer ? .readOnly : .ownerOnly }
        return access
    }

    /// A link: its own gallery only, while that is not in Recently deleted (else, like any other gallery, not
    /// found); reading when it shows items, adding when it is a drop link, nothing more.
    private func authorize(_ id: GalleryID, _ grant: LinkGrant, _ need: GalleryRole.Need) async throws(GalleryError) {
        guard grant.gallery == id, try await !store.state(of: id).deleted else { throw .galleryNotFound(id.rawValue) }
        let allowed =
            switch need {
            case .read: grant.kind == .view || grant.showItems
            case .add: grant.kind == .drop
            case .edit, .own: false
            }
        guard allowed else { throw .readOnly }
    }

    /// `gallery` with the asker's `owner` and `role`, with accounts.
    static func decorated(_ gallery: Gallery, _ access: GalleryAccess?) -> Gallery {
        guard let access else { return gallery }
        var gallery = gallery
        gallery.owner = access.owner
        gallery.role = access.role
        return gallery
    }

    // MARK: - Members

    /// The gallery's members (anyone who may read it may see who else can).
    public func members(of id: GalleryID, by viewer: GalleryViewer) async throws(GalleryError) -> [GalleryMember] {
        try await authorize(id, viewer, .read)
        return try await store.members(of: id)
    }

    /// Shares the gallery with the account named `name` as `role`, or changes its role (the owner only).
    public func setMember(named name: String, role: GalleryRole, in id: GalleryID, by viewer: GalleryViewer)
        async throws(GalleryError) -> [GalleryMember]
    {
        try await authorize(id, viewer, .own)
        try await store.setMember(named: name, role: role, in: id)
        return try await store.members(of: id)
    }

    /// Stops sharing the gallery with the account named `name` (the owner only).
    public func removeMember(named name: String, from id: GalleryID, by viewer: GalleryViewer)
        async throws(GalleryError)
    {
        try await authorize(id, viewer, .own)
        try await store.removeMember(named: name, from: id)
        events.accessChanged(of: id)
    }

    /// Whether `viewer` may see the stored copy `hash`: some gallery it may read holds it (everyone may
    /// without accounts). The image route asks this of every `stored:` image in accounts mode.
    public func mayView(storedImage hash: String, by viewer: GalleryViewer) async throws(GalleryError) -> Bool {
        switch viewer {
        case .everyone:
            return true
        case .account(let account):
            return try await store.holdsImage(hash, visibleTo: account)
        case .link(let grant):
            guard grant.kind == .view || grant.showItems,
                try await !store.state(of: grant.gallery).deleted
            else { return false }
            // A restricted item's copy never leaves through a link, even when another item has the same bytes
            // but not the same licence: one shareable item is enough.
            return try await links.items(holding: hash, in: grant.gallery).contains { json in
                (try? FastJSONDecoder.decode(Item.self, from: Data(json.utf8)))?.isRestricted == false
            }
        }
    }

    // MARK: - Accounts coming and going

    /// Gives every gallery nobody owns (made without accounts) to `account`; returns how many.
    public func adoptOwnerless(by account: String) async throws(GalleryError) -> Int {
        try await store.adoptOwnerless(by: account)
    }

    /// Moves every gallery of `account` to `heir`'s Recently deleted (`nil`: owned by nobody until an admin
    /// adopts them) and ends its memberships; returns how many galleries it owned.
    public func handOver(from account: String, to heir: String?) async throws(GalleryError) -> Int {
        let count = try await store.handOver(from: account, to: heir)
        // Its memberships ended too: every open stream checks again (rare, so all of them).
        events.accessChanged(of: nil)
        return count
    }
}

extension GalleryViewer {
    /// The account, with accounts; `nil` for everyone.
    var accountID: String? {
        if case .account(let id) = self { return id }
        return nil
    }
}
