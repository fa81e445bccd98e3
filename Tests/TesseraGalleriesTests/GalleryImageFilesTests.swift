import Foundation
import TesseraCore
import TesseraGalleries
import Testing

/// The stored copies' folder when more than one process uses it: a collection must not take a file
/// another process has just written for a row it is about to commit.
@Suite("Gallery image files")
struct GalleryImageFilesTests {
    func withFiles(_ body: (GalleryImageFiles) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-files-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(GalleryImageFiles(directory: directory))
    }

    func age(_ url: URL, by seconds: TimeInterval) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-seconds)], ofItemAtPath: url.path)
    }

    @Test func unreferencedFilesAreCollectedOnlyOnceTheyAreOld() async throws {
        try await withFiles { files in
            let kept = try await files.store(Data("kept".utf8))
            let fresh = try await files.store(Data("fresh".utf8))
            let old = try await files.store(Data("old".utf8))
            try age(files.url(forHash: old), by: GalleryImageFiles.unreferencedGrace + 60)
            let leftover = files.url(forHash: kept).deletingLastPathComponent()
                .appendingPathComponent(AtomicFile.temporaryPrefix + "leftover")
            try Data("torn".utf8).write(to: leftover)

            #expect(files.removeUnreferenced(keeping: [kept]) == 1)
            #expect(!FileManager.default.fileExists(atPath: files.url(forHash: old).path))
            #expect(FileManager.default.fileExists(atPath: files.url(forHash: fresh).path), "maybe not committed yet")
            #expect(FileManager.default.fileExists(atPath: leftover.path), "maybe still being written")

            let later = Date().addingTimeInterval(GalleryImageFiles.unreferencedGrace + 60)
            #expect(files.removeUnreferenced(keeping: [kept], now: later) == 2)
            #expect(FileManager.default.fileExists(atPath: files.url(forHash: kept).path))
            #expect(!FileManager.default.fileExists(atPath: leftover.path))
        }
    }

    @Test func storingAnImageAlreadyThereRenewsItsTime() async throws {
        try await withFiles { files in
            let data = Data("same bytes".utf8)
            let hash = try await files.store(data)
            try age(files.url(forHash: hash), by: GalleryImageFiles.unreferencedGrace + 60)
            #expect(try await files.store(data) == hash)
            #expect(files.removeUnreferenced(keeping: []) == 0, "about to be named by a new row")
            #expect(try Data(contentsOf: files.url(forHash: hash)) == data)
        }
    }
}
