import Synchronization
import TesseraCore
import TesseraImageProxy

/// Makes a streamed page's thumbnails through the image proxy as its sections are sent: the same signed
/// requests the browser is about to make (as a browser that takes WebP), so they warm the caches, and the
/// proxy hashes each thumbnail it makes, for the stream's `groups` event (docs/duplicates.md, "The
/// stream's `groups` event, and the server's prefetch"). Everything goes through `ImageProxy.image`:
/// signatures, the guarded fetcher, size and pixel caps, the coalescing of requests for one image all apply
/// as to a browser's request.
final class ThumbnailPrefetch: Sendable {
    /// The first thumbnails of each section, made before any section's others: a section's row shows about
    /// this many at first, and the window holds the first few of each (docs/duplicates.md, "Return to 20
    /// thumbnails painted").
    static let leading = 6
    /// How long the others wait once every section's first ones are started. The others are for grouping by
    /// look, and for tiles the window does not show yet; in this time the browser draws the rows and loads the
    /// first thumbnails, on cores it shares with this work on a small server (docs/duplicates.md, "The
    /// stream's `groups` event, and the server's prefetch": the 20th thumbnail painted 18-31 ms sooner, the
    /// `groups` event about 150 ms later).
    static let restPause: Duration = .milliseconds(150)
    /// How long the stream waits, after its last section, for the thumbnails still being made: past it,
    /// items without a hash group by identity only, and no further thumbnail is started
    /// (`TESSERA_IMAGE_PREFETCH_WAIT`).
    static let defaultWait: Duration = .seconds(3)

    /// One wake-up per queued thumbnail; the worker takes the next from `queued`, leading ones first.
    private let wake: AsyncStream<Void>.Continuation
    private let queued: Queue
    /// Finished once the worker has made every queued thumbnail, or at the time limit.
    private let settled: AsyncStream<Never>
    private let settle: AsyncStream<Never>.Continuation
    private let worker: Task<Void, Never>

    /// The thumbnails not started yet, leading ones first, and every address ever queued.
    private final class Queue: Sendable {
        let state = Mutex(Queued())
    }

    private struct Queued {
        var seen = Set<String>()
        var leading: [SignedImagePath] = []
        var rest: [SignedImagePath] = []
        var nextLeading = 0
        var nextRest = 0

        /// Whether the next thumbnail is one of the others: every leading one is started.
        var restIsNext: Bool { nextLeading == leading.count && nextRest < rest.count }

        mutating func next() -> SignedImagePath? {
            if nextLeading < leading.count {
                defer { nextLeading += 1 }
                return leading[nextLeading]
            }
            if nextRest < rest.count {
                defer { nextRest += 1 }
                return rest[nextRest]
            }
            return nil
        }
    }

    /// - Parameters:
    ///   - concurrency: thumbnails made at once, per stream (a page of `all` holds up to a hundred); by default as
    ///     many as the proxy renders at once. More only wait in its queue ahead of the browser's own requests for
    ///     thumbnails not made yet, while taking CPU from the page being drawn (docs/duplicates.md, "The stream's
    ///     `groups` event, and the server's prefetch": six at once, with the disk cache at normal priority,
    ///     painted the 20th thumbnail 35-43 ms later than two with the cache at the lowest).
    ///   - restPause: how long the others wait after the leading ones (`restPause`).
    init(proxy: ImageProxy, concurrency: Int? = nil, restPause: Duration = ThumbnailPrefetch.restPause) {
        let concurrency = max(1, concurrency ?? proxy.renderConcurrency)
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self)
        let (settled, settle) = AsyncStream.makeStream(of: Never.self)
        let queued = Queue()
        self.wake = wake
        self.settled = settled
        self.settle = settle
        worker = Task { [queued] in
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                var paused = false
                for await _ in wakes {
                    if running == concurrency, await group.next() != nil { running -= 1 }
                    if !paused, queued.state.withLock({ $0.restIsNext }) {
                        paused = true
                        try? await Task.sleep(for: restPause)
                        if Task.isCancelled { break }
                    }
                    // Taken when a slot is free, not when queued: a later section's first tiles overtake the
                    // rest of an earlier one.
                    guard let path = queued.state.withLock({ $0.next() }) else { continue }
                    group.addTask {
                        // A thumbnail that cannot be made is the browser's to report; its item groups by
                        // identity only.
                        _ = try? await proxy.image(path, acceptsWebP: true)
                    }
                    running += 1
                }
            }
            settle.finish()
        }
        self.queued = queued
    }

    /// Queues the thumbnails of `items`' pictures not queued yet (never those of other kinds: music, films,
    /// apps and books are not grouped); the first `leading` of them go before every section's others.
    func add(_ items: [Item], leading: Int = ThumbnailPrefetch.leading) {
        var added = 0
        for (index, item) in items.enumerated() where item.kind == .image {
            guard let url = item.thumbnail?.url, let path = SignedImagePath(url),
                path.variant == ImageVariant.thumb.rawValue
            else { continue }
            let inserted = queued.state.withLock { queued in
                guard queued.seen.insert(url).inserted else { return false }
                if index < leading { queued.leading.append(path) } else { queued.rest.append(path) }
                return true
            }
            if inserted { added += 1 }
        }
        for _ in 0..<added { wake.yield() }
    }

    /// Waits until every queued thumbnail is made, or `limit` has passed (or the stream's task is cancelled),
    /// then stops: thumbnails not started by then are left to the browser.
    func finish(within limit: Duration) async {
        wake.finish()
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
        wake.finish()
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
