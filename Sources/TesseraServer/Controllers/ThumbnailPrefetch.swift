import Synchronization
import TesseraCore
import TesseraImageProxy

/// Makes a streamed page's thumbnails through the image proxy as its sections are sent: the same signed
/// requests the browser is about to make (as a browser that takes WebP), so they warm the caches, and the
/// proxy hashes each thumbnail it makes, for the stream's `groups` event (docs/filters.md, "One picture,
/// shown once"). Everything goes through `ImageProxy.image`: signatures, the guarded fetcher, size and pixel
/// caps, the coalescing of requests for one image all apply as to a browser's request.
final class ThumbnailPrefetch: Sendable {
    /// Thumbnails made at once, per stream: a page of `all` holds up to a hundred.
    static let concurrency = 6
    /// How long the stream waits, after its last section, for the thumbnails still being made: past it,
    /// items without a hash group by identity only, and no further thumbnail is started
    /// (`TESSERA_IMAGE_PREFETCH_WAIT`).
    static let defaultWait: Duration = .seconds(3)

    private let queue: AsyncStream<SignedImagePath>.Continuation
    /// Finished once the worker has made every queued thumbnail, or at the time limit.
    private let settled: AsyncStream<Never>
    private let settle: AsyncStream<Never>.Continuation
    private let worker: Task<Void, Never>
    private let seen = Mutex(Set<String>())

    init(proxy: ImageProxy, concurrency: Int = ThumbnailPrefetch.concurrency) {
        let (paths, queue) = AsyncStream.makeStream(of: SignedImagePath.self)
        let (settled, settle) = AsyncStream.makeStream(of: Never.self)
        self.queue = queue
        self.settled = settled
        self.settle = settle
        worker = Task {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                for await path in paths {
                    if running == concurrency, await group.next() != nil { running -= 1 }
                    group.addTask {
                        // A thumbnail that cannot be made is the browser's to report; its item groups by
                        // identity only.
                        _ = try? await proxy.image(
                            variant: path.variant, signature: path.signature, encodedURL: path.encodedSource,
                            acceptsWebP: true)
                    }
                    running += 1
                }
            }
            settle.finish()
        }
    }

    /// Queues the thumbnails of `items`' pictures not queued yet (never those of other kinds: music, films,
    /// apps and books are not grouped).
    func add(_ items: [Item]) {
        for item in items where item.kind == .image {
            guard let url = item.thumbnail?.url, let path = SignedImagePath(url),
                path.variant == ImageVariant.thumb.rawValue,
                seen.withLock({ $0.insert(url).inserted })
            else { continue }
            queue.yield(path)
        }
    }

    /// Waits until every queued thumbnail is made, or `limit` has passed (or the stream's task is cancelled),
    /// then stops: thumbnails not started by then are left to the browser.
    func finish(within limit: Duration) async {
        queue.finish()
        let settle = settle
        let timer = Task {
            try? await Task.sleep(for: limit)
            settle.finish()
        }
        for await _ in settled {}
        timer.cancel()
        cancel()
    }

    /// Starts nothing more. Thumbnails being made are finished by the proxy (for whoever else waits for them)
    /// and cached as usual.
    func cancel() {
        queue.finish()
        worker.cancel()
    }
}

extension ImageProxy {
    /// The copies of one picture among a page's items (in the page's order: the sections' fixed order), by
    /// identity and the thumbnails' hashes known now (`thumbnailHashes(of:)`). Fetches nothing.
    public func pictureGroups(of items: [Item]) async -> [SearchResponse.Group] {
        PictureGrouping.groups(of: items, hashes: await thumbnailHashes(of: items)).map(SearchResponse.Group.init)
    }
}
