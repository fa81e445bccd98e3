import Foundation

/// A link's id: `l_` and 20 characters of lowercase base32, like `GalleryID`. What the owner revokes by;
/// never the slug, which is the link's secret.
public struct LinkID: RandomID {
    public static let prefix = "l_"
    public let rawValue: String

    public init?(rawValue: String) {
        guard RandomIDText.isValid(rawValue, prefix: Self.prefix) else { return nil }
        self.rawValue = rawValue
    }

    public static func random() -> LinkID { LinkID(unchecked: prefix + RandomIDText.random()) }

    /// An id read back from the database (either engine), where only valid ids were ever written.
    public init(unchecked rawValue: String) { self.rawValue = rawValue }
}

/// What a link lets a visitor without an account do (docs/accounts.md, "Public and drop links").
public enum LinkKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Look at the gallery: its items in the owner's order, their stored copies, the credits.
    case view
    /// Add images to the gallery (upload or URL); see its items only when `showItems`.
    case drop
}

/// A public or drop link to one gallery, as the store keeps it. The slug is kept as it is (not hashed) so
/// that the owner can copy the link again; the password only as its bcrypt hash.
public struct GalleryLink: Sendable, Hashable {
    public var id: LinkID
    public var gallery: GalleryID
    public var kind: LinkKind
    /// The random part of `/s/{slug}`: 128 random bits in base64url (22 characters).
    public var slug: String
    public var passwordHash: String?
    public var expiresAt: Date?
    public var createdAt: Date
    /// The account that made it (`u_…`).
    public var createdBy: String
    public var opens: Int
    public var lastOpenedAt: Date?
    /// Drop links: whether the visitor sees the gallery's items too.
    public var showItems: Bool
    /// Drop links: how many images one hour may bring.
    public var perHour: Int
    /// Drop links: images added through it so far.
    public var drops: Int

    public init(
        id: LinkID, gallery: GalleryID, kind: LinkKind, slug: String, passwordHash: String?, expiresAt: Date?,
        createdAt: Date, createdBy: String, opens: Int = 0, lastOpenedAt: Date? = nil, showItems: Bool = false,
        perHour: Int = GalleryLink.defaultPerHour, drops: Int = 0
    ) {
        self.id = id
        self.gallery = gallery
        self.kind = kind
        self.slug = slug
        self.passwordHash = passwordHash
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.opens = opens
        self.lastOpenedAt = lastOpenedAt
        self.showItems = showItems
        self.perHour = perHour
        self.drops = drops
    }

    public static let defaultPerHour = 60
    public static let perHourRange = 1...1000

    /// Whether the link has run out at `moment`.
    public func isExpired(at moment: Date) -> Bool {
        expiresAt.map { $0 <= moment } ?? false
    }

    /// Whether a visitor through this link sees the gallery's items.
    public var showsItems: Bool { kind == .view || showItems }

    /// A new slug: 16 random bytes (128 bits) as 22 characters of base64url.
    public static func randomSlug() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Whether `text` could be a slug at all (22 base64url characters), so nothing else reaches the database.
    public static func isSlug(_ text: String) -> Bool {
        text.utf8.count == 22
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x2D || byte == 0x5F
            }
    }
}

/// What a visitor through a link is, as galleries see it: the gallery it opens and what it may do there.
public struct LinkGrant: Sendable, Hashable {
    public var link: LinkID
    public var gallery: GalleryID
    public var kind: LinkKind
    public var showItems: Bool

    public init(link: LinkID, gallery: GalleryID, kind: LinkKind, showItems: Bool) {
        self.link = link
        self.gallery = gallery
        self.kind = kind
        self.showItems = showItems
    }

    public init(_ link: GalleryLink) {
        self.init(link: link.id, gallery: link.gallery, kind: link.kind, showItems: link.showItems)
    }
}
