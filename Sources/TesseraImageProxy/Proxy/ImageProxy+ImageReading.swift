import Foundation
import TesseraCore

/// The proxy as galleries see it: a signed address checked once, then the image by reference.
extension ImageProxy: ImageReading {
    public func verified(_ path: SignedImagePath) throws(ImageProxyError) -> ImageRequest {
        let variant = try Self.variant(path.variant)
        let text = try verified(variant, path.signature, path.encodedSource)
        do {
            return ImageRequest(variant: variant, reference: try ImageReference(parsing: text))
        } catch {
            throw .file(error)
        }
    }

    public func bytes(of image: ImageRequest) async throws(ImageProxyError) -> Data {
        Data(try await self.image(image).body.readableBytesView)
    }
}
