import Foundation

// What the stores and the galleries need of the image parts, named as small capabilities: the modules that
// use them link neither libvips nor the proxy, and the server wires in the real ones (`AppEnvironment`).

/// Where the signing key is kept when `TESSERA_SECRET` is not set: a file in the data folder
/// (`ImageSecretFile`) or the shared database (`PostgresImageSecret`). One test suite checks every engine.
public protocol ImageSecretStore: Sendable {
    /// The stored key, made and stored first when there is none: the same key for every caller, however many
    /// processes race to make it.
    func loadOrCreate() async throws -> Data
}

extension ImageSecretStore {
    /// A new key of 256 random bits from the system's secure generator, for a store that has none yet.
    public static func newKey() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

/// One variant of an image, named by reference: what a signed address says once its signature checked out,
/// or what a trusted caller (the CLI on its own data folder) names without signing anything.
public struct ImageRequest: Sendable, Hashable {
    public var variant: ImageVariant
    public var reference: ImageReference

    public init(variant: ImageVariant, reference: ImageReference) {
        self.variant = variant
        self.reference = reference
    }
}

extension Item {
    /// The largest image the item names, by reference: `full`, else `preview`, else `thumbnail`, as the
    /// variant that slot is served as. What a gallery keeps of a search result. `nil` when it names none.
    public var largestImage: ImageRequest? {
        guard let (url, variant) = largestImageAddress, let reference = try? ImageReference(parsing: url) else {
            return nil
        }
        return ImageRequest(variant: variant, reference: reference)
    }

    /// The address of the largest image the item names, as it stands in the item (for a search result from
    /// the API, signed), with the variant it is served as.
    public var largestImageAddress: (url: String, variant: ImageVariant)? {
        if let full { return (full.url, .original) }
        if let preview { return (preview.url, .preview) }
        return thumbnail.map { ($0.url, .thumb) }
    }
}

/// Images by reference, from the caches or fetched: the image proxy. A signed address is checked once, by
/// `verified`, where it comes in; what it names then travels as an `ImageRequest`.
public protocol ImageReading: Sendable {
    /// What a signed address names, once its signature holds (`invalidSignature` otherwise).
    func verified(_ path: SignedImagePath) throws(ImageProxyError) -> ImageRequest
    /// The bytes of an image already checked, or named by a trusted caller (never WebP: what is kept is what
    /// any viewer can read).
    func bytes(of image: ImageRequest) async throws(ImageProxyError) -> Data
}

/// Looks at image bytes without keeping them: libvips, on its own threads.
public protocol ImageInspecting: Sendable {
    /// Format and size, with the pixel cap checked.
    func header(of data: Data) throws(ImagingError) -> ImageHeader
    /// The picture's perceptual hash (docs/duplicates.md).
    func perceptualHash(of data: Data) async throws(ImagingError) -> PerceptualHash
}

/// Reads what a photo file holds, for the library's index: libvips, on its own threads.
public protocol PhotoReading: Sendable {
    /// Size and embedded metadata.
    func info(fileAt path: String) throws(ImagingError) -> ImageInfo
    /// The colours the picture shows.
    func palette(fileAt path: String) throws(ImagingError) -> ColorPalette
    /// Threads to read on, `size` of them: the reads block (libvips frees its per-thread buffers as each ends).
    func readingPool(size: Int, name: String) -> BlockingPool
}

/// Fetches an image from an address anyone gave: the guarded fetcher (private networks refused, redirects
/// checked, size capped while streaming).
public protocol ImageAddressFetching: Sendable {
    /// The bytes at `url`, given up as soon as the first bytes are not an image's.
    func image(at url: String) async throws(FetchError) -> Data
}
