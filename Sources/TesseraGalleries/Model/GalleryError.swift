import Foundation
import TesseraCore

/// Why a gallery request cannot be done. Each case carries what a person needs to act on it; `description`
/// is the sentence for them. Statuses and codes are the HTTP edge's business (`APIError+Galleries.swift`),
/// exit codes the CLI's.
public enum GalleryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No gallery has this id (or the text given is not an id at all).
    case galleryNotFound(String)
    /// The gallery has no item with this id.
    case itemNotFound(String)
    /// A name that is empty or over 100 characters once trimmed.
    case invalidName
    /// A negative position.
    case invalidIndex(Int)
    /// The request itself is not what the call takes; the text says what is wrong.
    case invalidBody(String)
    /// The item to add cannot be kept (too large, no image from this server); the text says why.
    case invalidItem(String)
    /// More than one gallery has the name asked for (the CLI's GALLERY argument); `candidates` lists them.
    case ambiguousName(String, candidates: [Gallery])
    /// The gallery is in Recently deleted: it must be restored before it changes.
    case galleryDeleted
    /// `If-Match` named another revision than the gallery's.
    case revisionMismatch(expected: Int, current: Int)
    /// An upload or a request body over the limit (bytes).
    case tooLarge(what: String, limit: Int)
    /// A URL import could not be fetched.
    case fetch(FetchError)
    /// The bytes of an import are not an image this server takes.
    case imaging(ImagingError)
    /// The image proxy could not give a search result's image.
    case proxy(ImageProxyError)
    /// A viewer asked for a change: the gallery was shared with them to look at only.
    case readOnly
    /// An editor asked for what only the owner does (delete, restore, manage members, a private export).
    case ownerOnly
    /// No account has this name (adding a member).
    case accountNotFound(String)
    /// This account is not a member of the gallery.
    case memberNotFound(String)
    /// A member that cannot be: the owner themselves.
    case invalidMember(String)
    /// The gallery already holds the same picture (same item id, or a perceptual hash within
    /// `PictureGrouping.threshold`); adding it anyway is asked for with `allowNearDuplicate`.
    case nearDuplicate(NearDuplicate)
    /// A public or drop link's refusal.
    case link(LinkError)
    /// The database or the image folder failed: the gallery's data could not be read or saved.
    case storage(underlying: any Error)

    public var description: String {
        switch self {
        case .galleryNotFound(let id):
            "There is no gallery \"\(id.prefix(60))\"."
        case .itemNotFound(let id):
            "This gallery has no item \"\(id.prefix(60))\"."
        case .invalidName:
            "A gallery name is 1 to 100 characters (spaces at the ends do not count)."
        case .invalidIndex(let index):
            "The index must be 0 or more, and at most \(Int.largestExactInJSON) (past the end means the end); \(index) is not."
        case .invalidBody(let why), .invalidItem(let why):
            why
        case .ambiguousName(let name, let candidates):
            "\(candidates.count) galleries are named \"\(name.prefix(60))\"; name one by its id ("
                + candidates.map(\.id.rawValue).joined(separator: ", ") + ")."
        case .galleryDeleted:
            "This gallery is in Recently deleted: restore it before changing it."
        case .revisionMismatch(let expected, let current):
            "The gallery changed meanwhile (revision \(current), not \(expected)): reload it and try again."
        case .tooLarge(let what, let limit):
            "\(what) is larger than \(limit / 1_048_576) MB, more than Tessera takes."
        case .fetch(let error):
            error.description
        case .imaging(let error):
            error.description
        case .proxy(let error):
            String(describing: error)
        case .readOnly:
            "This gallery was shared with you to view only; ask its owner to make you an editor to change it."
        case .ownerOnly:
            "Only the gallery's owner can delete or restore it, choose who it is shared with, and export the files"
                + " of pictures that may not be shared."
        case .accountNotFound(let name):
            "There is no user named \"\(name.prefix(64))\"."
        case .memberNotFound(let name):
            "\"\(name.prefix(64))\" is not a member of this gallery."
        case .invalidMember(let why):
            why
        case .nearDuplicate(let duplicate):
            "This gallery already has a picture that looks the same (“\(duplicate.title.prefix(200))”). Add it anyway?"
        case .link(let error):
            error.description
        case .storage(let underlying):
            "The galleries could not be read or saved: \(underlying)"
        }
    }

    /// Same case with the same context; underlying errors compare by what they say.
    public static func == (lhs: GalleryError, rhs: GalleryError) -> Bool {
        switch (lhs, rhs) {
        case (.galleryNotFound(let a), .galleryNotFound(let b)), (.itemNotFound(let a), .itemNotFound(let b)),
            (.invalidBody(let a), .invalidBody(let b)), (.invalidItem(let a), .invalidItem(let b)),
            (.accountNotFound(let a), .accountNotFound(let b)), (.memberNotFound(let a), .memberNotFound(let b)),
            (.invalidMember(let a), .invalidMember(let b)):
            a == b
        case (.invalidName, .invalidName), (.galleryDeleted, .galleryDeleted), (.readOnly, .readOnly),
            (.ownerOnly, .ownerOnly):
            true
        case (.invalidIndex(let a), .invalidIndex(let b)):
            a == b
        case (.ambiguousName(let a, let x), .ambiguousName(let b, let y)):
            a == b && x == y
        case (.revisionMismatch(let a, let x), .revisionMismatch(let b, let y)):
            a == b && x == y
        case (.tooLarge(let a, let x), .tooLarge(let b, let y)):
            a == b && x == y
        case (.fetch(let a), .fetch(let b)):
            a == b
        case (.imaging(let a), .imaging(let b)):
            a == b
        case (.link(let a), .link(let b)):
            a == b
        case (.nearDuplicate(let a), .nearDuplicate(let b)):
            a == b
        case (.proxy(let a), .proxy(let b)):
            String(describing: a) == String(describing: b)
        case (.storage(let a), .storage(let b)):
            String(describing: a) == String(describing: b)
        default:
            false
        }
    }
}

/// A gallery name: trimmed, 1–100 Unicode code points.
public enum GalleryName {
    public static let maxLength = 100

    public static func validated(_ raw: String) throws(GalleryError) -> String {
        let name = raw.trimmingWhitespace
        // Code points, as JSON Schema counts the contract's length (docs/openapi.yaml) and as `q` is counted:
        // counting what Swift calls characters let 100 letters with a pile of combining marks on each through.
        guard (1...maxLength).contains(name.unicodeScalars.count) else { throw .invalidName }
        return name
    }
}

/// The item already in a gallery that a new image is the same picture as: what the person is shown to decide.
public struct NearDuplicate: Sendable, Hashable, Codable {
    /// The gallery item's id.
    public var id: GalleryItemID
    public var title: String
    /// Its thumbnail's URL, as the gallery item gives it (`image.thumbnail`).
    public var thumbnail: String

    public init(id: GalleryItemID, title: String, thumbnail: String) {
        self.id = id
        self.title = title
        self.thumbnail = thumbnail
    }
}

extension GalleryError {
    /// Runs a store's database call: a `GalleryError` it throws passes through, anything else (the engine's
    /// own errors) becomes `storage`. Both engines' stores wrap their calls in it.
    public static func fromStore<T>(_ body: () async throws -> T) async throws(GalleryError) -> T {
        do {
            return try await body()
        } catch let error as GalleryError {
            throw error
        } catch {
            throw .storage(underlying: error)
        }
    }
}
