import Foundation
import Testing

@testable import TesseraImageProcessing

@Suite("Bounded concurrency")
struct ConcurrencyTests {
    @Test("20 thumbnails at once with concurrency 2: all made, never more than 2 decoding")
    func bound() async throws {
        let processor = ImageProcessor(concurrency: 2)
        let originals = try (0..<4).map { try TestImage.photo(width: 1600 + 100 * $0, height: 1200).jpeg() }
        let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await processor.thumbnail(of: originals[index % 4], maxSide: 300, allowWebP: index % 2 == 0)
                        .width
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sizes.count == 20)
        #expect(sizes.allSatisfy { $0 == 300 })
        #expect((1...2).contains(processor.pool.peakRunning))
    }
}
