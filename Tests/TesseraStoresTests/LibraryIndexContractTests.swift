import Foundation
import Synchronization
import TesseraImageProcessing
import TesseraLibrary
import TesseraPostgres
import TesseraTestSupport
import Testing

/// Indexing real photo folders into either engine's index, and PostgreSQL's one indexer at a time.
@Suite("Library indexing on both engines")
struct LibraryIndexContractTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")
    static let sampleNames = [
        "Cafe/espresso-cup-on-a-wooden-table.jpg", "Pets/chelsea-the-tabby-cat.jpg",
        "Space/astronaut-eileen-collins.jpg", "Space/falcon-9-rocket-launch.jpg",
        "Space/hubble-extreme-deep-field.jpg", "People/photographer-with-camera-on-tripod.jpg",
    ]

    /// A folder holding the sample photos (and a file that is not one), removed after `body`.
    private func withSampleFolder(_ body: (URL) async throws -> Void) async throws {
        try await withTemporaryFolder { folder in
            for name in Self.sampleNames { try copy(name, to: name, in: folder) }
            try Data("shopping list".utf8).write(to: folder.appendingPathComponent("notes.txt"))
            try await body(folder)
        }
    }

    private func copy(_ sample: String, to path: String, in folder: URL) throws {
        let target = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contentsOf: Self.samples.appendingPathComponent(sample)).write(to: target)
    }

    private func indexer(_ store: any LibraryStoring, batchSize: Int = 50) -> LibraryIndexer {
        LibraryIndexer(store: store, processor: ImageProcessor(concurrency: 2), batchSize: batchSize)
    }

    @Test(arguments: Engine.allCases)
    func indexesSearchesAndForgetsPhotosNoLongerOnDisk(engine: Engine) async throws {
        try await withSampleFolder { folder in
            try await LibraryStoreContractTests.withStore(engine) { store in
                let indexer = indexer(store)
                let first = try await indexer.index(folder: folder.path)
                #expect((first.added, first.notImages, first.removed) == (6, 1, 0))
                #expect(try await store.count() == 6)
                let found = try await store.search(SearchQuery("tabby"), roots: [first.root], page: 1, pageSize: 20)
                #expect(found.photos.map(\.path) == ["Pets/chelsea-the-tabby-cat.jpg"])
                #expect(try await store.search(SearchQuery("spa"), roots: nil, page: 1, pageSize: 20).total == 3)

                // Given one photo deleted, one added and one rewritten.
                try FileManager.default.removeItem(at: folder.appendingPathComponent(Self.sampleNames[4]))
                try copy(Self.sampleNames[3], to: "Space/Launches/second-launch.jpg", in: folder)
                try copy(Self.sampleNames[0], to: Self.sampleNames[1], in: folder)
                let second = try await indexer.index(folder: folder.path)
                #expect((second.added, second.updated, second.removed, second.unchanged) == (1, 1, 1, 4))
                #expect(try await store.photo(root: first.root, path: Self.sampleNames[4]) == nil)
                #expect(try await store.search(SearchQuery("hubble"), roots: nil, page: 1, pageSize: 20).total == 0)
                #expect(
                    try await store.search(SearchQuery("second launch"), roots: nil, page: 1, pageSize: 20).photos.map(
                        \.path) == ["Space/Launches/second-launch.jpg"])
                let rewritten = try #require(try await store.photo(root: first.root, path: Self.sampleNames[1]))
                #expect((rewritten.width, rewritten.height) == (600, 400), "read again: it is the espresso now")
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func aCancelledRunKeepsItsWorkAndTheNextOneCarriesOn(engine: Engine) async throws {
        try await withTemporaryFolder { folder in
            for index in 0..<60 {
                let name = Self.sampleNames[index % Self.sampleNames.count]
                try copy(name, to: "Batch \(index / 20)/photo-\(index).jpg", in: folder)
            }
            try await LibraryStoreContractTests.withStore(engine) { store in
                let indexer = indexer(store, batchSize: 5)
                let handle = Mutex<Task<IndexSummary, any Error>?>(nil)
                let task = Task { () async throws -> IndexSummary in
                    try await indexer.index(folder: folder.path) { event in
                        if case .progress(let progress) = event, progress.done >= 10 {
                            handle.withLock { $0?.cancel() }
                        }
                    }
                }
                handle.withLock { $0 = task }
                let interrupted = try await task.value
                let saved = try await store.count()
                #expect(interrupted.interrupted)
                #expect(saved >= 10 && saved < 60)
                #expect(saved == interrupted.added)
                let resumed = try await indexer.index(folder: folder.path)
                #expect(resumed.unchanged == saved, "the files saved before are not read again")
                #expect(try await store.count() == 60)
            }
        }
    }

    @Test func oneServerIndexesAtATimeAndTheOthersSayNo() async throws {
        let server = try requirePostgres()
        try await TestPostgres.withRunningDatabase(on: server) { database in
            let first = PostgresLibraryStore(database: database, logger: quietLogger)
            let second = PostgresLibraryStore(database: database, logger: quietLogger)
            let (holding, hold) = AsyncStream.makeStream(of: Void.self)
            let (release, letGo) = AsyncStream.makeStream(of: Void.self)
            let indexing = Task {
                try await first.whileIndexing {
                    hold.yield()
                    for await _ in release { break }
                    return "first indexed"
                }
            }
            for await _ in holding { break }
            let refused = try await second.whileIndexing { "second indexed" }
            #expect(refused == nil, "another server holds the indexing lock")
            letGo.yield()
            #expect(try await indexing.value == "first indexed")
            let after = try await second.whileIndexing { "second indexed" }
            #expect(after == "second indexed", "the lock is free once the first is done")
        }
    }

    @Test func sqliteAlwaysIndexes() async throws {
        try await LibraryStoreContractTests.withStore(.sqlite) { store in
            let ran = try await store.whileIndexing { 42 }
            #expect(ran == 42)
        }
    }
}
