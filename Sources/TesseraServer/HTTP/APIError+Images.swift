import HTTPTypes
import TesseraCore
import TesseraFetcher
import TesseraImageProcessing
import TesseraImageProxy

extension APIError {
    /// Why the image proxy could not answer with an image: `403` for what may not be served (a bad
    /// signature, a refused address, a file outside the library), `404` for what is not there, `502` for what
    /// the source sent or did wrong, `504` for a source too slow, `500` for this server's own faults.
    public init(_ error: ImageProxyError) {
        switch error {
        case .unknownVariant:
            self.init(status: .notFound, code: "not_found", message: error.description)
        case .invalidSignature:
            self.init(status: .forbidden, code: "invalid_signature", message: error.description)
        case .fetch(let fetchError):
            self.init(fetchError)
        case .imaging(let imagingError):
            self.init(imagingError)
        case .file(let fileError):
            self.init(fileError)
        case .fileGone:
            self.init(status: .notFound, code: "image_not_found", message: error.description)
        case .internal(let underlying):
            self.init(
                status: .internalServerError, code: "image_failed",
                message: "The image could not be prepared on the server; the log says more.", underlying: underlying)
        }
    }

    /// An image fetch: refused destinations are 403; the source's 404 or 410 is ours too; anything else the
    /// source did wrong is 502, a source too slow 504. The message names the host, never the URL's query.
    public init(_ error: FetchError) {
        let status: HTTPResponse.Status =
            switch error {
            case .invalidURL, .unsupportedScheme, .refusedAddress: .forbidden
            case .timeout: .gatewayTimeout
            case .upstreamStatus(_, let upstream) where upstream == 404 || upstream == 410: .notFound
            default: .badGateway
            }
        self.init(status: status, code: error.code, message: error.description, underlying: error)
    }

    /// What the bytes turned out to be: the source's problem (502), told in the imaging module's words; a
    /// libvips failure that is not about the bytes is this server's (500).
    public init(_ error: ImagingError) {
        switch error {
        case .notAnImage:
            self.init(status: .badGateway, code: "not_an_image", message: error.description, underlying: error)
        case .tooManyPixels:
            self.init(status: .badGateway, code: "too_many_pixels", message: error.description, underlying: error)
        case .unreadable:
            self.init(status: .badGateway, code: "unreadable_image", message: error.description, underlying: error)
        case .failed:
            self.init(
                status: .internalServerError, code: "image_failed",
                message: "The image could not be processed on the server; the log says more.", underlying: error)
        }
    }

    /// A library photo or stored copy that is not there (404) or may not be served (403).
    public init(_ error: ImageFileError) {
        let (status, code): (HTTPResponse.Status, String) =
            switch error {
            case .notLocal: (.forbidden, "not_local")
            case .outsideLibrary: (.forbidden, "outside_library")
            case .notAFile: (.forbidden, "not_a_file")
            case .missing: (.notFound, "not_found")
            case .noStoredCopy: (.notFound, "image_not_found")
            }
        self.init(status: status, code: code, message: error.description)
    }
}
