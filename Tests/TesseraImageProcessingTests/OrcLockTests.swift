import COrcLock
import CVips
import Foundation
import Testing

@testable import TesseraImageProcessing

/// libvips' vector code stays on, with liborc's frees of compiled code under liborc's lock (Sources/COrcLock):
/// Debian's liborc 0.4.33 frees without it, which crashed the indexer's concurrent thumbnails.
@Suite("libvips' vector code under orc's lock")
struct OrcLockTests {
    @Test("libvips' frees of orc programs come to the lock, and vector code is on")
    func freesComeToTheLock() async throws {
        let processor = ImageProcessor(concurrency: 1)
        #expect(tessera_orc_lock_in_effect() == 1)
        #expect(ImageProcessor.vectorCode)
        let before = tessera_orc_locked_frees()
        // 1200 → 400 is a shrink on load by 2, then libvips' reduce by 1.5, which compiles an orc program and
        // frees it with the image.
        let data = try TestImage.photo(width: 1200, height: 800).jpeg()
        let thumbnail = try await processor.thumbnail(of: data, maxSide: 400, allowWebP: false)
        #expect(thumbnail.width == 400)
        #expect(tessera_orc_locked_frees() > before)
    }

    @Test("Pipelines built and freed on four threads at once all finish")
    func concurrentPipelines() async throws {
        let processor = ImageProcessor(concurrency: 4)
        let originals = try (0..<4).map { try TestImage.photo(width: 700 + 50 * $0, height: 500).jpeg() }
        let widths = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<96 {
                group.addTask {
                    try await processor.thumbnail(of: originals[index % 4], maxSide: 150 + index % 7, allowWebP: false)
                        .width
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(widths.count == 96)
    }
}
