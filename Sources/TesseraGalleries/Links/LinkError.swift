import Foundation

/// Why a link request cannot be done (docs/accounts.md, "Public and drop links"); `description` is the sentence
/// for the person. Carried by `GalleryError.link`, mapped to HTTP in `APIError+Links.swift`.
public enum LinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No link has this slug or id, it was revoked, its gallery is in Recently deleted, or (owner routes) it is
    /// not the asker's: all alike, so slugs and ids reveal nothing.
    case notFound
    /// The link's expiry has passed.
    case expired
    /// The link has a password and the request brought neither it nor the unlock cookie.
    case passwordRequired
    /// The password is wrong (the same answer whatever was typed).
    case passwordWrong
    /// A view link was asked to add an image.
    case readOnly
    /// A drop link that does not show the gallery's items was asked for them (the credits).
    case itemsHidden
    /// The drop link took as many images as its hourly rate allows; try again after `retryAfter` seconds.
    case rateLimited(retryAfter: Int)
    /// The link asked for cannot be made; the text says what is wrong.
    case invalid(String)

    public var description: String {
        switch self {
        case .notFound:
            "This link does not exist or was revoked; ask the person who shared it for a new one."
        case .expired:
            "This link has expired; ask the person who shared it for a new one."
        case .passwordRequired:
            "This link needs its password."
        case .passwordWrong:
            "That password is not right for this link."
        case .readOnly:
            "This link only shows the gallery; it cannot add images."
        case .itemsHidden:
            "This link lets you add images to the gallery, not see the ones in it."
        case .rateLimited(let seconds):
            "This link has taken as many images as it may this hour; try again in \(seconds) seconds."
        case .invalid(let why):
            why
        }
    }
}
