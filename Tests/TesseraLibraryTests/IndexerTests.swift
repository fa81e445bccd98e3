import Foundation
import Synchronization
import TesseraCore
import TesseraImageProcessing
import TesseraLibrary
import Testing

@Suite("Indexing folders of real photos")
struct IndexerTests {
    /// Every sample under its own folder, plus things that are not photos to index.
    private func sampleFolder() throws -> TempFolder {
        let folder = try TempFolder()
        for sample in Sample.allCases { try folder.copy(sample, to: sample.rawValue) }
        try folder.write(Data("shopping list".utf8), to: "notes.txt")
        try folder.copy(.cat, to: ".hidden.jpg")
        try folder.copy(.cat, to: ".thumbnails/cat.jpg")
        return folder
    }

    @Test func indexesEveryImageByItsBytes() async throws {
        let folder = try sampleFolder()
        defer { folder.delete() }
        // An image without an image's name is still an image.
        try folder.copy(.rocket, to: "Space/launch-without-extension")
        let library = try Library()
        let summary = try await library.index(folder)
        #expect(summary.added == 7)
        #expect(summary.notImages == 1, "notes.txt")
        #expect(summary.warnings.isEmpty)
        #expect((summary.updated, summary.unchanged, summary.removed) == (0, 0, 0))
        #expect(!summary.interrupted)
        #expect(try await library.store.count() == 7)
        #expect(try await library.store.photo(root: summary.root, path: ".hidden.jpg") == nil)
        #expect(try await library.store.photo(root: summary.root, path: ".thumbnails/cat.jpg") == nil)

        let cat = try #require(try await library.store.photo(root: summary.root, path: Sample.cat.rawValue))
        #expect(cat.format == "jpeg")
        #expect((cat.width, cat.height) == (451, 300))
        #expect(cat.tags == ["pets", "chelsea", "tabby", "cat"])
        #expect(cat.stamp.size == Int64(Sample.cat.data.count))
    }

    /// docs/licences.md: the embedded licence first, else the nearest `.tessera-license` above, else unknown.
    @Test func aFolderLicenceFileIsTheDefaultForPhotosThatEmbedNone() async throws {
        let folder = try TempFolder()
        defer { folder.delete() }
        // A thumbnail carries no metadata: a photo that says nothing of its licence.
        let plain = try await ImageProcessor(concurrency: 1).thumbnail(
            of: Sample.cat.data, maxSide: 120, allowWebP: false
        )
        .data
        try folder.write(Data("  \ncc-by-sa-4.0\nignored\n".utf8), to: "Mine/.tessera-license")
        try folder.write(plain, to: "Mine/plain.jpg")
        try folder.write(plain, to: "Mine/Deeper/inherits.jpg")
        try folder.copy(.cat, to: "Mine/cat.jpg")
        try folder.write(Data("all-rights-reserved".utf8), to: "Mine/Other/.tessera-license")
        try folder.write(plain, to: "Mine/Other/own.jpg")
        try folder.write(plain, to: "Loose/plain.jpg")
        let library = try Library()
        let summary = try await library.index(folder)
        #expect(summary.added == 5 && summary.warnings.isEmpty)
        func license(_ path: String) async throws -> License? {
            try #require(try await library.store.photo(root: summary.root, path: path)).item.license
        }
        #expect(try await license("Mine/plain.jpg")?.id == "cc-by-sa-4.0")
        #expect(try await license("Mine/Deeper/inherits.jpg")?.id == "cc-by-sa-4.0")
        #expect(try await license("Mine/cat.jpg")?.id == .cc0, "what the file embeds wins")
        #expect(try await license("Mine/Other/own.jpg")?.id == .allRightsReserved, "the nearest file wins")
        let loose = try await license("Loose/plain.jpg")
        #expect(loose?.id == .unknown && loose?.allowsCommercialUse == false)
    }

    @Test func reindexingReadsOnlyWhatChanged() async throws {
        let folder = try sampleFolder()
        defer { folder.delete() }
        let library = try Library()
        let first = try await library.index(folder)
        #expect(first.added == 6)
        let before = try #require(try await library.store.photo(root: first.root, path: Sample.astronaut.rawValue))
        let catID = try #require(try await library.store.photo(root: first.root, path: Sample.cat.rawValue)).id

        // Given one file added, one rewritten with other bytes, one deleted.
        try folder.copy(.rocket, to: "Space/Launches/second-launch.jpg")
        try folder.copy(.espresso, to: Sample.cat.rawValue)
        try folder.remove(Sample.hubble.rawValue)
        // When indexing again.
        let second = try await library.index(folder)
        // Then only the new and the changed file are read.
        #expect(second.added == 1)
        #expect(second.updated == 1)
        #expect(second.removed == 1)
        #expect(second.unchanged == 4)
        #expect(second.filesRead == 2 + 1, "the new file, the changed one and notes.txt, which is never indexed")
        #expect(try await library.store.count() == 6)
        let cat = try #require(try await library.store.photo(root: first.root, path: Sample.cat.rawValue))
        #expect(cat.id == catID, "same path, same id")
        #expect((cat.width, cat.height) == (600, 400), "read again: it is the espresso now")
        #expect(try await library.store.photo(root: first.root, path: Sample.hubble.rawValue) == nil)
        let after = try #require(try await library.store.photo(root: first.root, path: Sample.astronaut.rawValue))
        #expect(after.indexedAt == before.indexedAt, "unchanged files are not read again")
        #expect(
            try await library.store.photo(root: first.root, path: "Space/Launches/second-launch.jpg")?.tags
                == ["space", "launches", "second", "launch"])

        // A new modification time alone counts as a change.
        try folder.touch(Sample.astronaut.rawValue, Date(timeIntervalSince1970: 1_600_000_000))
        let third = try await library.index(folder)
        #expect((third.added, third.updated, third.unchanged, third.removed) == (0, 1, 5, 0))
    }

    @Test func symlinksOutOfTheLibraryAreRefused() async throws {
        let outside = try TempFolder("outside")
        let folder = try TempFolder()
        defer {
            outside.delete()
            folder.delete()
        }
        let secret = try outside.copy(.rocket, to: "secret.jpg")
        try folder.copy(.cat, to: "cat.jpg")
        try folder.link("secret-link.jpg", to: secret.path)
        try folder.link("Elsewhere", to: outside.path)
        try folder.link("same-cat.jpg", to: folder.path + "/cat.jpg")
        try folder.link("dangling.jpg", to: folder.path + "/nothing-here.jpg")

        let library = try Library()
        let summary = try await library.index(folder)
        #expect(summary.added == 1, "cat.jpg, once: a link inside the library is its target's duplicate")
        #expect(try await library.store.count() == 1)
        let problems = Dictionary(uniqueKeysWithValues: summary.warnings.map { ($0.path, $0.problem) })
        #expect(problems["secret-link.jpg"] == .linkOutsideLibrary(target: secret.resolvingSymlinksInPath().path))
        #expect(problems["Elsewhere"] == .linkOutsideLibrary(target: outside.url.resolvingSymlinksInPath().path))
        #expect(problems["dangling.jpg"] == .brokenLink)
        #expect(summary.skipped == 3)
        #expect(summary.line.contains("2 links outside the library"))
    }

    @Test func corruptImagesAreSkippedWithAWarningAndIndexingGoesOn() async throws {
        let folder = try TempFolder()
        defer { folder.delete() }
        try folder.copy(.cat, to: "a-cat.jpg")
        try folder.write(Sample.cat.data.prefix(200), to: "b-truncated.jpg")
        var noise = SystemRandomNumberGenerator()
        try folder.write(Data((0..<4000).map { _ in UInt8.random(in: 0...255, using: &noise) }), to: "c-noise.jpg")
        try folder.write(Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 0x42, count: 3000), to: "d-bad-jpeg.jpg")
        try folder.copy(.rocket, to: "e-rocket.jpg")

        let library = try Library()
        let summary = try await library.index(folder)
        #expect(summary.added == 2)
        #expect(Set(summary.warnings.map(\.path)) == ["b-truncated.jpg", "c-noise.jpg", "d-bad-jpeg.jpg"])
        for warning in summary.warnings {
            guard case .unreadableImage = warning.problem else {
                Issue.record("\(warning) should be an unreadable image")
                continue
            }
        }
        #expect(summary.line.contains("3 skipped (3 unreadable images)"))

        // A photo that breaks later leaves the index.
        try folder.write(Sample.rocket.data.prefix(100), to: "e-rocket.jpg")
        let again = try await library.index(folder)
        #expect(again.removed == 1)
        #expect(try await library.store.count() == 1)
    }

    @Test func aMissingFolderOrAFileIsBadInput() async throws {
        let folder = try TempFolder()
        defer { folder.delete() }
        try folder.copy(.cat, to: "cat.jpg")
        let library = try Library()
        await #expect(throws: LibraryError.missingFolder(folder.path + "/nope")) {
            try await library.indexer.index(folder: folder.path + "/nope")
        }
        await #expect(throws: LibraryError.notAFolder(folder.path + "/cat.jpg")) {
            try await library.indexer.index(folder: folder.path + "/cat.jpg")
        }
    }

    @Test func aCancelledRunKeepsItsWorkAndTheNextOneCarriesOn() async throws {
        let folder = try TempFolder()
        defer { folder.delete() }
        for index in 0..<120 {
            try folder.copy(
                Sample.allCases[index % Sample.allCases.count], to: "Batch \(index / 20)/photo-\(index).jpg")
        }
        let library = try Library(batchSize: 5)
        let handle = Mutex<Task<IndexSummary, any Error>?>(nil)
        let task = Task { () async throws -> IndexSummary in
            try await library.indexer.index(folder: folder.path) { event in
                // Cancel as soon as some files are read, the way Ctrl-C does.
                if case .progress(let progress) = event, progress.done >= 10 {
                    handle.withLock { $0?.cancel() }
                }
            }
        }
        handle.withLock { $0 = task }
        let interrupted = try await task.value
        let saved = try await library.store.count()
        #expect(interrupted.interrupted)
        #expect(saved >= 10, "what was read is saved")
        #expect(saved < 120)
        #expect(saved == interrupted.added)

        let resumed = try await library.index(folder)
        #expect(!resumed.interrupted)
        #expect(resumed.unchanged == saved, "the files saved before are not read again")
        #expect(resumed.added == 120 - saved)
        #expect(try await library.store.count() == 120)
    }

    @Test func progressIsReportedUpToTheTotal() async throws {
        let folder = try sampleFolder()
        defer { folder.delete() }
        let events = Mutex<[IndexEvent]>([])
        let library = try Library()
        _ = try await library.indexer.index(folder: folder.path) { event in events.withLock { $0.append(event) } }
        let all = events.withLock { $0 }
        #expect(all.first == .listed(files: 7, toRead: 7))
        guard case .progress(let last) = all.last else {
            Issue.record("the last event is progress: \(all)")
            return
        }
        #expect(last.done == 7 && last.total == 7)
        #expect(last.line.hasPrefix("7/7 files · "))
    }
}
