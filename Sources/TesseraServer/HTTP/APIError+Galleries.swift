import HTTPTypes
import TesseraFetcher
import TesseraGalleries
import TesseraImageProcessing
import TesseraPostgres

extension APIError {
    /// A gallery request that cannot be done, in the statuses and codes `docs/openapi.yaml` promises; a
    /// stale `If-Match` also says the current revision. Imports answer 413 for too big and 415 for not an
    /// image; storage failures answer a generic sentence (the underlying error is for the log only).
    public init(_ error: GalleryError) {
        switch error {
        case .galleryNotFound:
            self.init(status: .notFound, code: "gallery_not_found", message: error.description)
        case .itemNotFound:
            self.init(status: .notFound, code: "item_not_found", message: error.description)
        case .invalidName:
            self.init(status: .badRequest, code: "invalid_name", message: error.description)
        case .invalidIndex:
            self.init(status: .badRequest, code: "invalid_index", message: error.description)
        case .invalidBody:
            self.init(status: .badRequest, code: "invalid_body", message: error.description)
        case .invalidItem:
            self.init(status: .badRequest, code: "invalid_item", message: error.description)
        case .ambiguousName:
            // Only the CLI looks galleries up by name; the API names them by id.
            self.init(status: .badRequest, code: "ambiguous_name", message: error.description)
        case .readOnly:
            self.init(status: .forbidden, code: "read_only_gallery", message: error.description)
        case .ownerOnly:
            self.init(status: .forbidden, code: "owner_only", message: error.description)
        case .accountNotFound:
            self.init(status: .notFound, code: "account_not_found", message: error.description)
        case .memberNotFound:
            self.init(status: .notFound, code: "member_not_found", message: error.description)
        case .invalidMember:
            self.init(status: .badRequest, code: "invalid_member", message: error.description)
        case .galleryDeleted:
            self.init(status: .conflict, code: "gallery_deleted", message: error.description)
        case .revisionMismatch(_, let current):
            self.init(status: .preconditionFailed, code: "revision_mismatch", message: error.description)
            headers[.eTag] = "\"\(current)\""
        case .tooLarge:
            self.init(status: .contentTooLarge, code: "too_large", message: error.description)
        case .fetch(let fetch):
            // As the image proxy answers a failed fetch, but for what the API promises imports: 413, 415.
            self.init(fetch)
            switch fetch {
            case .tooLarge: status = .contentTooLarge
            case .notAnImage: status = .unsupportedMediaType
            default: break
            }
        case .imaging(let imaging):
            switch imaging {
            case .notAnImage:
                self.init(status: .unsupportedMediaType, code: "not_an_image", message: imaging.description)
            case .unreadable:
                self.init(status: .unsupportedMediaType, code: "unreadable_image", message: imaging.description)
            case .tooManyPixels:
                self.init(status: .contentTooLarge, code: "too_many_pixels", message: imaging.description)
            case .failed:
                self.init(
                    status: .internalServerError, code: "image_failed",
                    message: "The image could not be prepared; the server log says why.", underlying: imaging)
            }
        case .nearDuplicate(let duplicate):
            // The person is asked; the same request with `allowNearDuplicate: true` adds it anyway.
            self.init(status: .conflict, code: "near_duplicate", message: error.description)
            duplicateOf = duplicate
        case .link(let link):
            self.init(link)
        case .proxy(let proxy):
            // A search result's image: the proxy's own answer, as `/img` would give it.
            self.init(proxy)
        case .storage(let underlying as SharedDatabaseError) where underlying.isUnavailable:
            // The shared database is away (restarting, refusing connections, too slow): nothing was changed,
            // and the same request will work once it is back, as `/api/health` will say.
            self.init(
                status: .serviceUnavailable, code: "database_unavailable",
                message: "The database is not answering right now; nothing was changed. Try again in a moment.",
                underlying: underlying)
            headers[.retryAfter] = "5"
        case .storage(let underlying):
            self.init(
                status: .internalServerError, code: "storage_failed",
                message: "The gallery could not be saved; the server log says why.", underlying: underlying)
        }
    }
}
