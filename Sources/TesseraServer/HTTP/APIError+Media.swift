import HTTPTypes
import TesseraFetcher
import TesseraImageProxy

extension APIError {
    /// Why `/media/...` could not play a preview: `403` for a bad signature or a refused address (as `/img`),
    /// `502` for what the host sent (not audio or video, too large) or did wrong, `504` for a host too slow.
    public init(_ error: MediaProxyError) {
        switch error {
        case .invalidSignature:
            self.init(status: .forbidden, code: "invalid_signature", message: error.description)
        case .notMedia:
            self.init(status: .badGateway, code: "not_media", message: error.description, underlying: error)
        case .tooLarge:
            self.init(status: .badGateway, code: "too_large", message: error.description, underlying: error)
        case .fetch(let fetchError):
            self.init(fetchError)
        case .internal(let underlying):
            self.init(
                status: .internalServerError, code: "media_failed",
                message: "The preview could not be prepared on the server; the log says more.",
                underlying: underlying)
        }
    }

    /// A `Range` that asks only for bytes past the end: `416` with the size, as RFC 9110 §15.5.17 has it.
    static func rangeNotSatisfiable(size: Int) -> APIError {
        var error = APIError(
            status: .rangeNotSatisfiable, code: "range_not_satisfiable",
            message: "The preview has \(size) bytes; the requested range starts past its end.")
        error.headers[.contentRange] = "bytes */\(size)"
        error.headers[.acceptRanges] = "bytes"
        return error
    }
}
