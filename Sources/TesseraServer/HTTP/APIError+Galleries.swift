import HTTPTypes
import TesseraFetcher
import TesseraGalleries
import TesseraImaging

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
        case .galleryDeleted:
            self.init(status: .conflict, code: "gallery_deleted", message: error.description)
        case .revisionMismatch(_, let current):
            self.init(status: .preconditionFailed, code: "revision_mismatch", message: error.description)
            headers[.eTag] = "\"\(current)\""
        case .tooLarge:
            self.init(status: .contentTooLarge, code: "too_large", message: error.description)
        case .fetch(let fetch):
            self.init(status: Self.importStatus(fetch), code: fetch.code, message: fetch.description)
        case .imaging(let imaging):
            switch imaging {
            case .notAnImage:
                self.init(status: .unsupportedMediaType, code: "not_an_image", message: imaging.description)
            case .unreadable:
                self.init(status: .unsupportedMediaType, code: "unreadable_image", message: imaging.description)
            case .tooManyPixels:
                self.init(status: .contentTooLarge, code: "too_many_pixels", message: imaging.description)
            case .failed:
                // underlying: logged by APIErrorMiddleware
                self.init(
                    status: .internalServerError, code: "image_failed",
                    message: "The image could not be prepared; the server log says why.")
            }
        case .proxy(let proxy):
            // A search result's image: the proxy's own answer, as `/img` would give it.
            self.init(proxy)
        case .storage:
            // underlying: logged by APIErrorMiddleware
            self.init(
                status: .internalServerError, code: "storage_failed",
                message: "The gallery could not be saved; the server log says why.")
        }
    }

    /// A URL import the fetcher refused: 413 for too big, 415 for not an image; otherwise as the image proxy
    /// answers a fetch failure (refused destinations 403, a gone image 404, a slow host 504, else 502).
    private static func importStatus(_ error: FetchError) -> HTTPResponse.Status {
        switch error {
        case .tooLarge: .contentTooLarge
        case .notAnImage: .unsupportedMediaType
        case .invalidURL, .unsupportedScheme, .refusedAddress: .forbidden
        case .timeout: .gatewayTimeout
        case .upstreamStatus(_, let upstream) where upstream == 404 || upstream == 410: .notFound
        default: .badGateway
        }
    }
}
