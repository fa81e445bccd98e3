import Foundation
import TesseraCore

/// A signed address checked once, where it comes in (the image routes, the galleries); then the image by
/// reference.
extension ImageProxy: ImageReading {
    /// What a signed address names, once its signature holds (`invalidSignature` otherwise).
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
