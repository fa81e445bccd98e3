import Foundation
import Logging
import Metrics
import NIOCore
import TesseraCore
import TesseraFetcher
import TesseraImageProcessing

/// What `/img/{variant}/{signature}/{source}` answers: the signed image, fetched with the guarded fetcher
/// (or read from this machine: a library photo or a gallery's stored copy), checked, resized with libvips,
/// and cached in memory and on disk.
///
/// The verified source is read once into an `ImageReference`: `.web` is fetched, `.library` and `.stored`
/// come from `files`, which refuses what may not be served. Failures are `ImageProxyError`s.
///
/// Concurrent requests for one variant share one fetch and one resize; concurrent requests for different
/// variants of one source share the fetch. Nothing is fetched for a URL whose signature does not match.
public final class ImageProxy: Sendable {
    private let signer: ImageURLSigner
    private let fetcher: ImageFetcher
    let processor: ImageProcessor
    private let memory: MemoryImageCache
    private let disk: DiskImageCache?
    /// The perceptual hash of each thumbnail made, kept beside it (`ImageProxy+Hashes`).
    let hashes: ThumbnailHashes
    /// Where library photos and stored copies are on this machine, and whether they may be served.
    private let files: any LocalImageFiles
    /// Looking files up and reading originals blocks: never on Swift's cooperative threads.
    private let fileWork = BlockingPool(size: 4, name: "image-files")
    let logger: Logger
    private let renders = Coalescer<ServedImage>()
    private let fetches = Coalescer<Data>()
    private let metrics: ImageProxyMetrics

    /// - Parameters:
    ///   - metrics: where cache hits and misses, cache sizes and thumbnails are counted.
    ///   - thumbnailHashes: the database the thumbnails' hashes are also kept in (`ThumbnailHashes`).
    public init(
        signer: ImageURLSigner, fetcher: ImageFetcher, processor: ImageProcessor, memory: MemoryImageCache,
        disk: DiskImageCache?, files: any LocalImageFiles, thumbnailHashes: (any ThumbnailHashStoring)? = nil,
        logger: Logger = Logger(label: "tessera.images"), metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) {
        self.signer = signer
        self.fetcher = fetcher
        self.processor = processor
        self.memory = memory
        self.disk = disk
        self.hashes = ThumbnailHashes(disk: disk, database: thumbnailHashes)
        self.files = files
        self.logger = logger
        self.metrics = ImageProxyMetrics(factory: metrics)
        self.metrics.memory.bytes.record(memory.totalBytes)
        if let disk { self.metrics.disk.bytes.record(disk.totalBytes) }
    }

    /// How many images the proxy's processor renders at once (`TESSERA_IMAGE_CONCURRENCY`, one per core by
    /// default): more requests than that only wait in its queue.
    public var renderConcurrency: Int { processor.concurrency }

    /// The image for a signed path (the thumbnail prefetch asks so): from the memory cache without a check
    /// (a path only gets in once its signature checked out), else checked and made. `acceptsWebP`: the client
    /// said so in `Accept` (thumb and preview only).
    public func image(_ path: SignedImagePath, acceptsWebP: Bool) async throws(ImageProxyError) -> ServedImage {
        if let hit = cachedImage(path, acceptsWebP: acceptsWebP) { return hit }
        metrics.memory.misses.increment()
        return try await kept(verified(path), acceptsWebP: acceptsWebP, as: path)
    }

    /// The image a request names, for a caller that checked its address already (`verified`) or named it
    /// itself. Given the signed path it came from, it is kept in the memory cache under it (whose keys are
    /// signed paths, so the fast path can answer the next request for it); without, it is not.
    public func image(_ request: ImageRequest, acceptsWebP: Bool = false, cachedAs path: SignedImagePath? = nil)
        async throws(ImageProxyError) -> ServedImage
    {
        guard let path else {
            let mode = Self.mode(request.variant, acceptsWebP: acceptsWebP)
            return try await rendered(request.variant, mode: mode, reference: request.reference)
        }
        if let hit = cachedImage(path, acceptsWebP: acceptsWebP) { return hit }
        metrics.memory.misses.increment()
        return try await kept(request, acceptsWebP: acceptsWebP, as: path)
    }

    /// Made, then kept in the memory cache under the signed path it was asked for by.
    private func kept(_ request: ImageRequest, acceptsWebP: Bool, as path: SignedImagePath)
        async throws(ImageProxyError) -> ServedImage
    {
        let mode = Self.mode(request.variant, acceptsWebP: acceptsWebP)
        let image = try await rendered(request.variant, mode: mode, reference: request.reference)
        memory.put(image, for: Self.memoryKey(mode, request.variant, path.signature, path.encodedSource))
        metrics.memory.bytes.record(memory.totalBytes)
        return image
    }

    /// Made once per variant however many wait (`renders`), from the disk cache or afresh.
    private func rendered(_ variant: ImageVariant, mode: String, reference: ImageReference)
        async throws(ImageProxyError) -> ServedImage
    {
        let key = Self.cacheKey(variant, mode: mode, reference: reference.string)
        do {
            return try await renders.run(key) {
                try await self.produce(variant, mode: mode, image: reference, key: key)
            }
        } catch let error as ImageProxyError {
            throw error
        } catch {
            throw .internal(error)
        }
    }

    /// The image for a signed path if the memory cache holds it, without waiting or verifying (a path only
    /// gets into the cache after its signature checked out). `nil` for anything else, including bad paths:
    /// the caller then takes the full route, which reports the error. Only a hit is counted here: a miss
    /// goes on to `image`, which counts it.
    public func cachedImage(_ path: SignedImagePath, acceptsWebP: Bool) -> ServedImage? {
        guard let variant = ImageVariant(rawValue: path.variant) else { return nil }
        let mode = Self.mode(variant, acceptsWebP: acceptsWebP)
        guard let hit = memory.get(Self.memoryKey(mode, variant, path.signature, path.encodedSource)) else {
            return nil
        }
        metrics.memory.hits.increment()
        return hit
    }

    /// The entity tag the image a request names has, without producing it, so `If-None-Match` can be
    /// answered at once.
    public func etag(_ request: ImageRequest, acceptsWebP: Bool) -> String {
        let mode = Self.mode(request.variant, acceptsWebP: acceptsWebP)
        return Self.etag(for: Self.cacheKey(request.variant, mode: mode, reference: request.reference.string))
    }

    // MARK: - Producing

    private func produce(_ variant: ImageVariant, mode: String, image: ImageReference, key: String)
        async throws(ImageProxyError) -> ServedImage
    {
        // The signed form: what the thumbnails' hashes are kept by and the fetches coalesced on.
        let reference = image.string
        let etag = Self.etag(for: key)
        if let disk {
            if let data = await disk.read(key), let format = ImageSniffer.format(of: data.prefix(64)) {
                metrics.disk.hits.increment()
                if variant == .thumb { await recordHash(ofThumbnail: data, source: reference, key: key) }
                return ServedImage(body: ByteBuffer(bytes: data), contentType: format.mimeType, etag: etag)
            }
            metrics.disk.misses.increment()
        }
        let source: Source
        switch (image, variant.maxDimension) {
        case (.web(let url), _): source = .bytes(try await fetched(url))
        // libvips reads the file itself, so shrink-on-load decodes only what the thumbnail needs.
        case (.library, let maxSide?), (.stored, let maxSide?): source = .file(try await localFile(image), maxSide)
        case (.library, nil), (.stored, nil): source = .bytes(try await read(image))
        }
        let output: Data
        let format: ImageFormat
        var hash: PerceptualHash?
        do throws(ImagingError) {
            let allowWebP = mode == Self.webPMode
            let hashing = variant == .thumb ? PerceptualHashing.chosen : nil
            let started = ContinuousClock.now
            switch (source, variant.maxDimension) {
            case (.file(let file, let maxSide), _):
                let rendered = try await processor.thumbnail(
                    fileAt: file.path, maxSide: maxSide, allowWebP: allowWebP, hashing: hashing)
                (output, format, hash) = (rendered.data, rendered.format, rendered.perceptualHash)
                metrics.thumbnail(variant, took: ContinuousClock.now - started)
            case (.bytes(let data), let maxSide?):
                let rendered = try await processor.thumbnail(
                    of: data, maxSide: maxSide, allowWebP: allowWebP, hashing: hashing)
                (output, format, hash) = (rendered.data, rendered.format, rendered.perceptualHash)
                metrics.thumbnail(variant, took: ContinuousClock.now - started)
            case (.bytes(let data), nil):
                (output, format) = (data, try processor.header(of: data).format)
            }
        } catch {
            throw .imaging(error)
        }
        // A `thumb` is hashed in its render, from the pixels before they are encoded (no second decode; the
        // bytes only when that could not be done), and kept before answering, so whoever waited for it can read
        // its hash next (docs/duplicates.md, "Hashing in the render").
        if variant == .thumb { await recordHash(ofThumbnail: output, made: hash, source: reference, key: key) }
        if let disk {
            // Behind the answer: the client does not wait for the disk.
            let bytes = metrics.disk.bytes
            Task {
                await disk.write(output, for: key)
                bytes.record(disk.totalBytes)
            }
        }
        return ServedImage(body: ByteBuffer(bytes: output), contentType: format.mimeType, etag: etag)
    }

    /// What an image is made from: bytes (fetched, or a local original) or a local file for a thumbnail.
    private enum Source {
        case bytes(Data)
        case file(URL, Int)
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
            throw .fetch(error)
        } catch {
            throw .internal(error)
        }
    }

    /// The file a library photo or stored copy is in, if it may be served.
    private func localFile(_ reference: ImageReference) async throws(ImageProxyError) -> URL {
        let files = files
        let file: URL?
        do throws(ImageFileError) {
            file = try await fileWork.run { () throws(ImageFileError) in try files.file(for: reference) }
        } catch {
            throw .file(error)
        }
        guard let file else { throw .internal(CancellationError()) }
        return file
    }

    /// A library photo's or stored copy's bytes, as they are on disk.
    private func read(_ reference: ImageReference) async throws(ImageProxyError) -> Data {
        let files = files
        let data = try await fileWork.run { () throws(ImageProxyError) -> Data in
            let file: URL
            do throws(ImageFileError) {
                file = try files.file(for: reference)
            } catch {
                throw .file(error)
            }
            do {
                return try Data(contentsOf: file)
            } catch {
                // Deleted since the check: no longer there. Anything else (a file this server cannot read) is
                // a fault of this machine, not of the request.
                if !FileManager.default.fileExists(atPath: file.path) { throw .fileGone(path: file.path) }
                throw .internal(error)
            }
        }
        guard let data else { throw .internal(CancellationError()) }
        return data
    }

    // MARK: - Keys

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

    static func variant(_ name: String) throws(ImageProxyError) -> ImageVariant {
        guard let variant = ImageVariant(rawValue: name) else {
            throw .unknownVariant(name)
        }
        return variant
    }

    func verified(_ variant: ImageVariant, _ signature: String, _ encodedURL: String) throws(ImageProxyError)
        -> String
    {
        guard let reference = signer.verify(variant: variant, signature: signature, encodedURL: encodedURL) else {
            throw .invalidSignature
        }
        return reference
    }
}
