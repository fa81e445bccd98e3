import Foundation
import TesseraCore
import Testing

@testable import TesseraImageProxy

@Suite("Thumbnail hashes kept beside the cached thumbnails")
struct ThumbnailHashesTests {
    @Test func aHashIsReadBackFromDiskAfterARestart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-hashes-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = "https://cdn.example/photo.jpg"
        let hash = PerceptualHash(bits: 0x0123_4567_89ab_cdef)
        let first = ThumbnailHashes(disk: try await DiskImageCache.open(directory: folder, capacityBytes: 10_000))
        #expect(await first.hash(of: source) == nil)
        first.store(hash, for: source)
        #expect(await first.hash(of: source) == hash, "known at once, before the disk write ends")

        // A new process: only the disk cache's files carry the hash over. The write runs behind `store`, so
        // wait (boundedly) for it to land.
        var reopened: PerceptualHash?
        for _ in 0..<200 where reopened == nil {
            let disk = try await DiskImageCache.open(directory: folder, capacityBytes: 10_000)
            reopened = await ThumbnailHashes(disk: disk).hash(of: source)
            if reopened == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(reopened == hash)
        let disk = try await DiskImageCache.open(directory: folder, capacityBytes: 10_000)
        let stored = try #require(await disk.read(ThumbnailHashes.diskKey(source)))
        #expect(String(decoding: stored, as: UTF8.self) == "0123456789abcdef", "sixteen hex digits, no image")
        #expect(await ThumbnailHashes(disk: disk).hash(of: "https://cdn.example/other.jpg") == nil)
    }

    @Test func withoutADiskCacheHashesStayInMemory() async {
        let hashes = ThumbnailHashes(disk: nil, capacity: 2)
        for number in 0..<3 { hashes.store(PerceptualHash(bits: UInt64(number)), for: "s\(number)") }
        #expect(await hashes.hash(of: "s0") == nil, "the oldest went to stay within the capacity")
        #expect(await hashes.hash(of: "s2") == PerceptualHash(bits: 2))
    }
}
