import Foundation
import Synchronization
import Testing

@testable import TesseraCore

@Suite("Blocking pool")
struct BlockingPoolTests {
    @Test("Work runs on the pool's own threads, not the caller's")
    func ownThreads() async throws {
        let pool = BlockingPool(size: 1, name: "test-pool")
        let thread = try #require(await pool.run { pthread_self() })
        #expect(pool.threads.contains(thread))
        #expect(pthread_self() != thread)
    }

    @Test("A pool's threads run at its niceness; the caller's stays as it was")
    func niceness() async throws {
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let low = BlockingPool(size: 1, name: "test-nice", niceness: 19)
        #expect(await low.run { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) } == 19)
        let plain = BlockingPool(size: 1, name: "test-plain")
        #expect(await plain.run { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) } == before)
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before)
    }

    @Test("Never more jobs at once than threads; every result comes back, errors included")
    func bound() async throws {
        let pool = BlockingPool(size: 2, name: "test-pool")
        let results = await withTaskGroup(of: Result<Int, Failure>?.self) { group in
            for index in 0..<12 {
                group.addTask {
                    do throws(Failure) {
                        return .success(
                            try await pool.run { () throws(Failure) -> Int in
                                Thread.sleep(forTimeInterval: 0.01)
                                if index == 5 { throw Failure(index: index) }
                                return index
                            } ?? -1)
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 12)
        #expect(results.compactMap { try? $0?.get() }.sorted() == [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11])
        #expect(results.contains { if case .failure(Failure(index: 5)) = $0 { true } else { false } })
        #expect((1...2).contains(pool.peakRunning))
    }

    @Test("A job still queued when its task is cancelled is dropped without running")
    func cancellation() async throws {
        let pool = BlockingPool(size: 1, name: "test-pool")
        let gate = ThreadGate()
        let ran = Mutex(false)
        // The only thread is busy until the gate opens.
        let blocker = Task { await pool.run { gate.wait() } }
        while pool.peakRunning == 0 { await Task.yield() }
        let queued = Task { await pool.run { ran.withLock { $0 = true } } }
        queued.cancel()
        #expect(await queued.value == nil)
        gate.open()
        #expect(await blocker.value != nil)
        // Give the thread a job after the dropped one: if that one had stayed queued, it would run first.
        _ = await pool.run {}
        #expect(ran.withLock { $0 } == false)
    }

    @Test("A job that may hang is abandoned when its task is cancelled, and the pool goes on")
    func abandonOnCancel() async throws {
        let pool = BlockingPool(size: 1, name: "test-pool")
        let gate = ThreadGate()
        let hung = Task { await pool.run(abandonOnCancel: true) { gate.wait() } }
        while pool.peakRunning == 0 { await Task.yield() }
        hung.cancel()
        #expect(await hung.value == nil, "answered at once, the job still running")
        gate.open()
        #expect(await pool.run { 42 } == 42)
    }

    @Test("Its threads never keep a pool alive: releasing it stops them")
    func release() async throws {
        var pool: BlockingPool? = BlockingPool(size: 2, name: "test-pool")
        #expect(await pool?.run { 1 } == 1)
        weak let released = pool
        pool = nil
        #expect(released == nil)
    }

    @Test("What a finished job captured is let go, even the pool itself")
    func finishedJobsLetGo() async throws {
        final class Payload: Sendable {}
        weak var releasedPool: BlockingPool?
        weak var releasedPayload: Payload?
        do {
            // As `DiskImageCache.open` does: the job holds the pool it runs on.
            let pool = BlockingPool(size: 1, name: "test-pool")
            let payload = Payload()
            releasedPool = pool
            releasedPayload = payload
            let answer: Int? = await pool.run { [pool, payload] in
                withExtendedLifetime(payload) { pool.size }
            }
            #expect(answer == 1)
        }
        // The thread lets go just after answering: wait for it, within a bound.
        for _ in 0..<500 where releasedPool != nil || releasedPayload != nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(releasedPayload == nil, "the job's captures outlived it")
        #expect(releasedPool == nil, "a job holding its pool kept the pool and its threads")
    }

    struct Failure: Error, Equatable {
        let index: Int
    }
}

/// Blocks threads until opened.
final class ThreadGate: @unchecked Sendable {
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
