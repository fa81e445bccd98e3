import Foundation
import Logging
import NIOCore
import TesseraCore
import TesseraFetcher

/// What `/media/{signature}/{source}` answers: a service's audio or video preview, fetched once whole with
/// the guarded fetcher (private networks refused, redirects re-checked, capped at `maxBytes`), checked to be
/// audio or video by its content type and its first bytes, and kept in a small memory cache from which the
/// route serves byte ranges. Previews are short (iTunes': 30 seconds, about 1 MB of audio), so holding one
/// whole is cheaper than relaying ranges upstream. See docs/media.md.
///
/// Nothing is fetched for a path whose signature does not match; concurrent requests share one fetch.
public final class MediaProxy: Sendable {
    private let signer: ImageURLSigner
    private let fetcher: ImageFetcher
    private let maxBytes: Int
    private let cache: MemoryImageCache
    private let fetches = Coalescer<ServedImage>()
    private let logger: Logger

    /// - Parameters:
    ///   - maxBytes: The largest preview fetched (`TESSERA_PREVIEW_MAX_MB`).
    ///   - cacheBytes: Previews kept in memory (`TESSERA_PREVIEW_MEMORY_MB`); 0 keeps none.
    public init(
        signer: ImageURLSigner, fetcher: ImageFetcher, maxBytes: Int, cacheBytes: Int,
        logger: Logger = Logger(label: "tessera.media")
    ) {
        self.signer = signer
        self.fetcher = fetcher
        self.maxBytes = maxBytes
        self.cache = MemoryImageCache(capacityBytes: cacheBytes)
        self.logger = logger
    }

    /// The whole preview for a signed path: its bytes, content type and entity tag.
    public func media(signature: String, encodedURL: String) async throws(MediaProxyError) -> ServedImage {
        // The key holds the signature, so only verified paths ever get in, and a hit needs no HMAC.
        let key = signature + "/" + encodedURL
        if let hit = cache.get(key) { return hit }
        let url = try verified(signature, encodedURL)
        let media: ServedImage
        do {
            media = try await fetches.run(url) { try await self.fetch(url) }
        } catch let error as MediaProxyError {
            throw error
        } catch {
            throw .internal(error)
        }
        cache.put(media, for: key)
        return media
    }

    /// The entity tag of a signed path's preview, without fetching it, for `If-None-Match` and `If-Range`.
    public func etag(signature: String, encodedURL: String) throws(MediaProxyError) -> String {
        Self.etag(for: try verified(signature, encodedURL))
    }

    private func verified(_ signature: String, _ encodedURL: String) throws(MediaProxyError) -> String {
        guard let url = signer.verifyMedia(signature: signature, encodedURL: encodedURL) else {
            throw .invalidSignature
        }
        return url
    }

    /// One fetch, refused as soon as the first bytes are no audio or video container.
    private func fetch(_ url: String) async throws(MediaProxyError) -> ServedImage {
        let body: FetchedBody
        do throws(FetchError) {
            body = try await fetcher.fetch(
                url, accept: MediaFormat.accept, maxBytes: maxBytes, prefixLength: MediaFormat.prefixLength,
                validatePrefix: { MediaFormat.sniff($0) != nil })
        } catch {
            switch error {
            case .notAnImage(let host, let contentType): throw .notMedia(host: host, contentType: contentType)
            case .tooLarge: throw .tooLarge(limit: maxBytes)
            default: throw .fetch(error)
            }
        }
        let host = URL(string: body.finalURL)?.host ?? "The host"
        let declared = body.contentType.map(MediaFormat.essence)
        // Both must say audio or video: the host's label and the bytes themselves.
        guard let declared, MediaFormat.acceptedTypes.contains(declared), let format = MediaFormat.sniff(body.data)
        else {
            logger.debug("refused preview", metadata: ["host": "\(host)", "type": "\(body.contentType ?? "none")"])
            throw .notMedia(host: host, contentType: body.contentType)
        }
        return ServedImage(
            body: ByteBuffer(bytes: body.data), contentType: format.contentType(brandOf: body.data, declared: declared),
            etag: Self.etag(for: url))
    }

    /// A strong tag per source URL: a preview's bytes do not change under one address (and if the service
    /// replaced them, the cached copy stays consistent with its tag until it is evicted).
    static func etag(for url: String) -> String {
        "\"m" + KeyHash.hex(url, bytes: 16) + "\""
    }
}
