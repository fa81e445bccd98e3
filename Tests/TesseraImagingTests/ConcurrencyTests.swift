import Foundation
import Synchronization
import Testing

@testable import TesseraImaging

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

    @Test("Work runs on the pool's own threads, not the caller's")
    func ownThreads() async throws {
        let pool = WorkerPool(size: 1, name: "test-pool")
        defer { pool.shutdown() }
        let thread = try await pool.run { pthread_self() }
        #expect(pool.threads.contains(thread))
        #expect(pthread_self() != thread)
    }

    @Test("A job still queued when its task is cancelled is dropped without running")
    func cancellation() async throws {
        let pool = WorkerPool(size: 1, name: "test-pool")
        defer { pool.shutdown() }
        let gate = Gate()
        let ran = Mutex(false)
        // The only thread is busy until the gate opens.
        let blocker = Task { try await pool.run { gate.wait() } }
        while pool.peakRunning == 0 { await Task.yield() }
        let queued = Task { try await pool.run { ran.withLock { $0 = true } } }
        queued.cancel()
        await #expect(throws: ImagingError.self) { try await queued.value }
        gate.open()
        try await blocker.value
        // Give the thread a job after the dropped one: if that one had stayed queued, it would run first.
        try await pool.run {}
        #expect(ran.withLock { $0 } == false)
    }
}

/// Blocks threads until opened.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func wait() {
        condition.withLock {
            while !isOpen { condition.wait() }
        }
    }

    func open() {
        condition.withLock {
            isOpen = true
            condition.broadcast()
        }
    }
}
