import Foundation
import Synchronization
import TesseraCore

/// Indexes a folder of photos into the photo index (`LibraryStoring`): new and changed files are read, unchanged ones
/// skipped, rows of deleted files dropped.
///
/// Work is saved in small batches as it goes, so a run that is cancelled (Ctrl-C in the CLI) loses at most
/// the files being read at that moment, and the next run carries on from there.
public struct LibraryIndexer: Sendable {
    public let store: any LibraryStoring
    /// How many files are read at once.
    public let concurrency: Int
    /// Photos saved per transaction.
    public let batchSize: Int
    private let reader: PhotoReader

    public init(store: any LibraryStoring, processor: any PhotoReading, concurrency: Int = 4, batchSize: Int = 50) {
        self.store = store
        self.reader = PhotoReader(processor: processor)
        self.concurrency = max(1, concurrency)
        self.batchSize = max(1, batchSize)
    }

    /// Indexes `folder` (any path; its real path becomes the library root) and reports as it goes.
    ///
    /// Returns early with `interrupted` set when the task is cancelled. Throws for a folder that is missing
    /// or not a folder, and when the index cannot be written.
    public func index(
        folder: String, onEvent: @escaping @Sendable (IndexEvent) -> Void = { _ in }
    ) async throws(LibraryError) -> IndexSummary {
        let started = ContinuousClock.now
        let root = try Self.root(of: folder)
        var run = Run(summary: IndexSummary(root: root), onEvent: onEvent)
        defer { run.summary.elapsed = ContinuousClock.now - started }
        // The walk and the reads block (file system, libvips): on threads of this run's own, one per file
        // read at once, ended when the run is.
        let pool = reader.processor.readingPool(size: concurrency, name: "library")

        guard let listing = await Self.walk(root, on: pool) else { return run.interrupted(at: started) }
        for warning in listing.warnings { run.warn(warning) }
        // A walk cut short lists too few files: removing rows on its word would drop photos that are there.
        guard !Task.isCancelled else { return run.interrupted(at: started) }

        let known = try await saving { () async throws(LibraryError) in try await store.stamps(root: root) }
        let present = Set(listing.files.map(\.path))
        let gone = known.keys.filter { !present.contains($0) }
        run.summary.removed += try await saving { () async throws(LibraryError) in
            try await store.remove(paths: gone, root: root)
        }
        // Photos indexed before palettes were are read again, once (docs/filters.md).
        let withoutPalette = try await saving { () async throws(LibraryError) in
            try await store.pathsWithoutPalette(root: root)
        }
        let toRead = listing.files.filter { known[$0.path] != $0.stamp || withoutPalette.contains($0.path) }
        run.summary.unchanged = listing.files.count - toRead.count
        onEvent(.listed(files: listing.files.count, toRead: toRead.count))

        let read = try await read(toRead, root: root, known: known, on: pool, into: &run)
        run.summary.elapsed = ContinuousClock.now - started
        run.summary.interrupted = read < toRead.count
        return run.summary
    }

    /// The real path of `folder`, which must be an existing folder.
    static func root(of folder: String) throws(LibraryError) -> String {
        guard let real = FileSystem.realPath(folder) else { throw .missingFolder(folder) }
        guard FileSystem.status(real, followLinks: true)?.kind == .directory else { throw .notAFolder(folder) }
        return real
    }

    /// Lists the files under `root` on `pool`; `nil` when the task is cancelled before the walk is over.
    private static func walk(_ root: String, on pool: BlockingPool) async -> FolderWalker.Listing? {
        // The walk runs outside the task, so it learns of a cancellation through this flag.
        let cancelled = Flag()
        return await withTaskCancellationHandler {
            await pool.run { FolderWalker(root: root).walk(isCancelled: { cancelled.isSet }) }
        } onCancel: {
            cancelled.set()
        }
    }

    private final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    // MARK: - Reading

    /// Reads `files` at most `concurrency` at a time, saving every `batchSize` photos (and at least once a
    /// second); returns how many were read before the task was cancelled (all of them if it was not).
    private func read(
        _ files: [FoundFile], root: String, known: [String: FileStamp], on pool: BlockingPool, into run: inout Run
    ) async throws(LibraryError) -> Int {
        guard !files.isEmpty else {
            run.onEvent(.progress(IndexProgress(done: 0, total: 0, elapsed: .zero)))
            return 0
        }
        let reader = self.reader
        let now = Date()
        let started = ContinuousClock.now
        var batch = Batch()
        var lastSave = started
        var lastReport = started
        var failure: LibraryError?
        var done = 0

        await withTaskGroup(of: PhotoReader.Outcome?.self) { group in
            var next = 0
            func start() {
                let file = files[next]
                next += 1
                group.addTask { await pool.run { reader.read(file, root: root, now: now) } }
            }
            for _ in 0..<min(pool.size, files.count) { start() }
            while let outcome = await group.next() {
                // Cancelled before a thread took it: not read.
                guard let outcome else { continue }
                done += 1
                run.summary.filesRead += 1
                batch.add(outcome, known: known, summary: &run)
                let clock = ContinuousClock.now
                var saved = false
                if batch.photos.count >= batchSize || clock - lastSave > .seconds(1) || done == files.count {
                    do throws(LibraryError) {
                        _ = try await saving { [batch] () async throws(LibraryError) in
                            try await store.update(root: root, saving: batch.photos, removing: batch.dropped)
                        }
                    } catch {
                        failure = error
                        group.cancelAll()
                        break
                    }
                    run.summary.removed += batch.dropped.count
                    batch = Batch()
                    lastSave = clock
                    saved = true
                }
                // Reported after each save too, so what a report counts is on disk (or about to be).
                if saved || clock - lastReport > .milliseconds(100) {
                    run.onEvent(.progress(IndexProgress(done: done, total: files.count, elapsed: clock - started)))
                    lastReport = clock
                }
                if !Task.isCancelled, next < files.count { start() }
            }
        }
        if let failure { throw failure }
        // Cancelled: what finished after the last save is saved now, so the next run need not read it again.
        _ = try await saving { [batch] () async throws(LibraryError) in
            try await store.update(root: root, saving: batch.photos, removing: batch.dropped)
        }
        run.summary.removed += batch.dropped.count
        return done
    }

    /// Runs a store call in a task of its own, so a cancelled run still saves what it has done (GRDB refuses
    /// to start work in a cancelled task).
    private func saving<T: Sendable>(
        _ work: @escaping @Sendable () async throws(LibraryError) -> T
    ) async throws(LibraryError) -> T {
        let result = await Task { () async -> Result<T, LibraryError> in
            do throws(LibraryError) { return .success(try await work()) } catch { return .failure(error) }
        }.value
        return try result.get()
    }

    /// The counts and reports of one run.
    private struct Run {
        var summary: IndexSummary
        let onEvent: @Sendable (IndexEvent) -> Void

        mutating func warn(_ warning: IndexWarning) {
            summary.warnings.append(warning)
            onEvent(.warning(warning))
        }

        mutating func interrupted(at started: ContinuousClock.Instant) -> IndexSummary {
            summary.interrupted = true
            summary.elapsed = ContinuousClock.now - started
            return summary
        }
    }

    /// Photos read and rows to drop since the last save.
    private struct Batch: Sendable {
        var photos: [LibraryPhoto] = []
        var dropped: [String] = []

        mutating func add(_ outcome: PhotoReader.Outcome, known: [String: FileStamp], summary run: inout Run) {
            switch outcome {
            case .photo(let photo):
                photos.append(photo)
                if known[photo.path] == nil { run.summary.added += 1 } else { run.summary.updated += 1 }
            case .notImage(let path):
                run.summary.notImages += 1
                if known[path] != nil { dropped.append(path) }
            case .failed(let warning):
                run.warn(warning)
                // A file that was indexed and now cannot be read is no longer a photo anybody can see.
                if known[warning.path] != nil { dropped.append(warning.path) }
            }
        }
    }
}
