import Foundation
import Logging
import NIOCore
import NIOPosix
import TesseraCore
import TesseraFetcher
import TesseraImaging

/// What `/img/{variant}/{signature}/{source}` answers: the signed image, fetched with the guarded fetcher
/// (or read from the local library), checked, resized with libvips, and cached in memory and on disk.
///
/// Concurrent requests for one variant share one fetch and one resize; concurrent requests for different
/// variants of one source share the fetch. Nothing is fetched for a URL whose signature does not match.
public final class ImageProxy: Sendable {
    /// Turns a `local:` reference into the path of a file inside a configured library folder, or refuses.
    public typealias LocalResolver = @Sendable (String) throws(ImageProxyError) -> String

    private let signer: ImageURLSigner
    private let fetcher: ImageFetcher
    private let processor: ImageProcessor
    private let memory: MemoryImageCache
    private let disk: DiskImageCache?
    private let resolveLocal: LocalResolver
    private let logger: Logger
    private let renders = Coalescer<ServedImage>()
    private let fetches = Coalescer<Data>()

    public init(
        signer: ImageURLSigner, fetcher: ImageFetcher, processor: ImageProcessor, memory: MemoryImageCache,
        disk: DiskImageCache?, resolveLocal: @escaping LocalResolver,
        logger: Logger = Logger(label: "tessera.images")
    ) {
        self.signer = signer
        self.fetcher = fetcher
        self.processor = processor
        self.memory = memory
        self.disk = disk
        self.resolveLocal = resolveLocal
        self.logger = logger
    }

    /// The image for a signed path. `acceptsWebP`: the client said so in `Accept` (thumb and preview only).
    public func image(
        variant variantName: String, signature: String, encodedURL: String, acceptsWebP: Bool
    ) async throws(ImageProxyError) -> ServedImage {
        let variant = try Self.variant(variantName)
        let mode = Self.mode(variant, acceptsWebP: acceptsWebP)
        // The memory key holds the signature, so only paths that were verified once ever get in, and a hit
        // needs no HMAC.
        let memoryKey = Self.memoryKey(mode, variant, signature, encodedURL)
        if let hit = memory.get(memoryKey) { return hit }
        let reference = try verified(variant, signature, encodedURL)
        let key = Self.cacheKey(variant, mode: mode, reference: reference)
        let image: ServedImage
        do {
            image = try await renders.run(key) {
                try await self.produce(variant, mode: mode, reference: reference, key: key)
            }
        } catch let error as ImageProxyError {
            throw error
        } catch {
            throw .internal("\(error)")
        }
        memory.put(image, for: memoryKey)
        return image
    }

    /// The image for a signed path if the memory cache holds it, without waiting or verifying (a path only
    /// gets into the cache after its signature checked out). `nil` for anything else, including bad paths:
    /// the caller then takes the full route, which reports the error.
    public func cachedImage(variant variantName: String, signature: String, encodedURL: String, acceptsWebP: Bool)
        -> ServedImage?
    {
        guard let variant = ImageVariant(rawValue: variantName) else { return nil }
        let mode = Self.mode(variant, acceptsWebP: acceptsWebP)
        return memory.get(Self.memoryKey(mode, variant, signature, encodedURL))
    }

    /// The entity tag the image for this path has, without producing it, so `If-None-Match` can be
    /// answered at once. Throws for a bad signature like `image` does.
    public func etag(
        variant variantName: String, signature: String, encodedURL: String, acceptsWebP: Bool
    ) throws(ImageProxyError) -> String {
        let variant = try Self.variant(variantName)
        let mode = Self.mode(variant, acceptsWebP: acceptsWebP)
        let reference = try verified(variant, signature, encodedURL)
        return Self.etag(for: Self.cacheKey(variant, mode: mode, reference: reference))
    }

    // MARK: - Producing

    private func produce(_ variant: ImageVariant, mode: String, reference: String, key: String)
        async throws(ImageProxyError) -> ServedImage
    {
        let etag = Self.etag(for: key)
        if let disk, let data = await disk.read(key), let format = ImageSniffer.format(of: data.prefix(64)) {
            return ServedImage(body: ByteBuffer(bytes: data), contentType: format.mimeType, etag: etag)
        }
        let isLocal = Self.localPrefixes.contains { reference.hasPrefix($0) }
        let path = isLocal ? try resolveLocal(reference) : nil
        let output: Data
        let format: ImageFormat
        do {
            switch (variant.maxDimension, path) {
            case (let maxSide?, let path?):
                let rendered = try await processor.thumbnail(
                    fileAt: path, maxSide: maxSide, allowWebP: mode == Self.webPMode)
                (output, format) = (rendered.data, rendered.format)
            case (let maxSide?, nil):
                let source = try await fetched(reference)
                let rendered = try await processor.thumbnail(
                    of: source, maxSide: maxSide, allowWebP: mode == Self.webPMode)
                (output, format) = (rendered.data, rendered.format)
            case (nil, let path?):
                output = try await Self.readFile(path)
                format = try processor.header(of: output).format
            case (nil, nil):
                output = try await fetched(reference)
                format = try processor.header(of: output).format
            }
        } catch let error as ImagingError {
            throw ImageProxyError(error)
        } catch let error as ImageProxyError {
            throw error
        } catch {
            throw .internal("\(error)")
        }
        if let disk {
            // Behind the answer: the client does not wait for the disk.
            Task { await disk.write(output, for: key) }
        }
        return ServedImage(body: ByteBuffer(bytes: output), contentType: format.mimeType, etag: etag)
    }

    /// The source's bytes through the guarded fetcher; one fetch per URL at a time.
    private func fetched(_ reference: String) async throws(ImageProxyError) -> Data {
        let fetcher = fetcher
        do {
            return try await fetches.run(reference) {
                try await fetcher.fetch(
                    reference, prefixLength: ImageSniffer.prefixLength,
                    validatePrefix: { ImageSniffer.format(of: $0) != nil }
                ).data
            }
        } catch let error as FetchError {
            throw ImageProxyError(error)
        } catch {
            throw .internal("\(error)")
        }
    }

    private static func readFile(_ path: String) async throws(ImageProxyError) -> Data {
        do {
            return try await NIOThreadPool.singleton.runIfActive { try Data(contentsOf: URL(fileURLWithPath: path)) }
        } catch {
            throw ImageProxyError(
                status: 404, code: "image_not_found", message: "The photo is no longer in the library.")
        }
    }

    // MARK: - Keys

    /// References to files on this machine, resolved by `resolveLocal`: library photos and gallery copies.
    static let localPrefixes = ["local:", "stored:"]

    static let webPMode = "w"

    /// How the answer is encoded: `o` the original bytes, `w` JPEG or WebP (smaller wins), `j` JPEG only.
    static func mode(_ variant: ImageVariant, acceptsWebP: Bool) -> String {
        variant == .original ? "o" : acceptsWebP ? webPMode : "j"
    }

    static func memoryKey(_ mode: String, _ variant: ImageVariant, _ signature: String, _ encodedURL: String)
        -> String
    {
        "\(mode)/\(variant.rawValue)/\(signature)/\(encodedURL)"
    }

    static func cacheKey(_ variant: ImageVariant, mode: String, reference: String) -> String {
        "\(variant.rawValue)|\(mode)|\(reference)"
    }

    /// A strong tag per representation: the same key always renders to the same bytes.
    static func etag(for key: String) -> String {
        "\"" + KeyHash.hex(key, bytes: 16) + "\""
    }

    private static func variant(_ name: String) throws(ImageProxyError) -> ImageVariant {
        guard let variant = ImageVariant(rawValue: name) else {
            throw ImageProxyError(
                status: 404, code: "not_found",
                message: "Unknown image size \"\(name)\": use thumb, preview or original.")
        }
        return variant
    }

    private func verified(_ variant: ImageVariant, _ signature: String, _ encodedURL: String) throws(ImageProxyError)
        -> String
    {
        guard let reference = signer.verify(variant: variant, signature: signature, encodedURL: encodedURL) else {
            throw ImageProxyError(
                status: 403, code: "invalid_signature",
                message: "This image address was not made by this server (or its secret changed): search again.")
        }
        return reference
    }
}
