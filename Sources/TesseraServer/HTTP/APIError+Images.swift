import HTTPTypes
import TesseraImages

extension APIError {
    /// Why the image proxy could not answer with an image.
    public init(_ error: ImageProxyError) {
        self.init(status: HTTPResponse.Status(code: error.status), code: error.code, message: error.message)
    }
}
