import TesseraFetcher
import TesseraImaging

/// Why the proxy cannot answer with an image: an HTTP status, a code for the API's error shape and a
/// sentence for people. Never holds the source URL's query (it may carry a key).
public struct ImageProxyError: Error, Sendable, Hashable, CustomStringConvertible {
    public var status: Int
    public var code: String
    public var message: String

    public init(status: Int, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    static func `internal`(_ detail: String) -> ImageProxyError {
        ImageProxyError(status: 500, code: "image_failed", message: "The image could not be prepared: \(detail)")
    }

    /// Refused destinations are 403; anything the source did wrong is 502, a source too slow 504.
    public init(_ error: FetchError) {
        let status: Int
        switch error {
        case .invalidURL, .unsupportedScheme, .refusedAddress: status = 403
        case .timeout: status = 504
        case .upstreamStatus(_, let upstream) where upstream == 404 || upstream == 410: status = 404
        default: status = 502
        }
        self.init(status: status, code: error.code, message: error.description)
    }

    /// What the bytes turned out to be: the source's problem (502), told in the imaging module's words.
    public init(_ error: ImagingError) {
        let code: String
        switch error {
        case .notAnImage: code = "not_an_image"
        case .tooManyPixels: code = "too_many_pixels"
        case .unreadable: code = "unreadable_image"
        case .failed: code = "image_failed"
        }
        self.init(status: code == "image_failed" ? 500 : 502, code: code, message: error.description)
    }
}
