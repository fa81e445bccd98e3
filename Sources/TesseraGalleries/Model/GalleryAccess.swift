import Foundation

/// Who asks for a gallery, as galleries see it (the server turns its request's principal into this).
public enum GalleryViewer: Sendable, Hashable {
    /// `TESSERA_AUTH` `none` or `token`, and the CLI on the data folder: one user, who sees every gallery.
    case everyone
    /// `TESSERA_AUTH=accounts`: this account (its id, `u_…`), who sees the galleries it owns or is a member of.
    case account(String)
    /// A visitor without an account through a public or drop link (docs/accounts.md, "Public and drop links"):
    /// reads exactly the link's gallery (view links, drop links that show items) or adds to it (drop links);
    /// never removes, reorders, renames, or sees members, links or any other gallery.
    case link(LinkGrant)
}

/// What a person may do with one gallery (docs/accounts.md, "Owners and collaborators").
public enum GalleryRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// Everything: items, renaming, deleting and restoring, members.
    case owner
    /// Reads, adds, moves and removes items, renames; not delete, restore or manage members.
    case editor
    /// Reads only.
    case viewer

    /// What each step needs, ordered: `read` < `add` < `edit` < `own`. `add` is adding items, which a drop link
    /// may do without any other change.
    public enum Need: Int, Sendable, Comparable {
        case read, add, edit, own
        public static func < (lhs: Need, rhs: Need) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    var grants: Need {
        switch self {
        case .owner: .own
        case .editor: .edit
        case .viewer: .read
        }
    }
}

/// One account's access to one gallery: its role there and the owner's name.
public struct GalleryAccess: Sendable, Hashable {
    public var role: GalleryRole
    public var owner: String?

    public init(role: GalleryRole, owner: String?) {
        self.role = role
        self.owner = owner
    }
}

/// A collaborator on a gallery, by account name.
public struct GalleryMember: Sendable, Hashable, Codable {
    public var name: String
    /// `editor` or `viewer` (the owner is not a member).
    public var role: GalleryRole

    public init(name: String, role: GalleryRole) {
        self.name = name
        self.role = role
    }
}
