import HTTPTypes
import TesseraGalleries

extension APIError {
    /// A gallery request that cannot be done; a stale `If-Match` also says the current revision.
    public init(_ error: GalleryError) {
        self.init(status: HTTPResponse.Status(code: error.status), code: error.code, message: error.message)
        if let revision = error.currentRevision { headers[.eTag] = "\"\(revision)\"" }
    }
}
