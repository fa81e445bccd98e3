import Foundation

/// Public and drop links in a database: the contract both engines keep (SQLite `SQLiteLinkStore`, PostgreSQL
/// `TesseraPostgres.PostgresLinkStore`; one suite holds both to it). Every method is one statement or one
/// transaction. A link goes with its gallery when that is deleted for good, and with the account that made it.
/// Moments come from the caller's clock, so expiry and the hourly drop window are tested without waiting.
/// Errors are `GalleryError`s: `galleryNotFound` for a link to a gallery that does not exist, `storage` for
/// what the database itself throws.
public protocol LinkStoring: Sendable {
    func insertLink(_ link: GalleryLink) async throws(GalleryError)
    /// The gallery's links, newest first.
    func links(of gallery: GalleryID) async throws(GalleryError) -> [GalleryLink]
    func link(id: LinkID) async throws(GalleryError) -> GalleryLink?
    /// The link with this slug, unless its gallery is in Recently deleted (a visitor sees nothing then).
    func link(slug: String) async throws(GalleryError) -> GalleryLink?
    /// False when there was no such link.
    func deleteLink(id: LinkID) async throws(GalleryError) -> Bool
    /// Counts one opening.
    func recordOpen(of id: LinkID, at moment: Date) async throws(GalleryError)
    /// Takes one of the link's `perHour` drops in the hour that began with its first drop: `nil` when taken,
    /// else the seconds until the hour is over. Several servers sharing the database count together.
    func takeDrop(of id: LinkID, perHour: Int, at moment: Date) async throws(GalleryError) -> Int?
    /// Counts one image added through the link.
    func recordDrop(of id: LinkID) async throws(GalleryError)
    /// The items of `gallery` whose stored copy is `hash`, as stored (JSON): empty when none is. A link shows
    /// the copy only when one of them may be shared (`Item.isRestricted`).
    func items(holding hash: String, in gallery: GalleryID) async throws(GalleryError) -> [String]
}
