import Synchronization
import Testing

@testable import TesseraCore

/// `withDeadline` returns at the deadline even when the work ignores cancellation (as a TCP connect stuck
/// inside an HTTP client does); a task group would wait for it.
@Suite("Deadline")
struct DeadlineTests {
    struct TimedOut: Error {}

    /// Work that only ends when the test lets it.
    final class Gate: Sendable {
        private let state = Mutex<(opened: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

        func wait() async {
            await withCheckedContinuation { continuation in
                let opened = state.withLock { state in
                    if !state.opened { state.waiter = continuation }
                    return state.opened
                }
                if opened { continuation.resume() }
            }
        }

        func open() {
            state.withLock { state in
                state.opened = true
                defer { state.waiter = nil }
                return state.waiter
            }?.resume()
        }
    }

    @Test(.timeLimit(.minutes(1))) func workThatIgnoresCancellationDoesNotHoldTheCallerPastTheDeadline() async {
        let gate = Gate()
        await #expect(throws: TimedOut.self) {
            try await withDeadline(.now + .milliseconds(100), timedOut: { TimedOut() }) {
                await gate.wait()
                return 1
            }
        }
        gate.open()
    }

    @Test func workThatFinishesInTimeGivesItsResultOrError() async throws {
        let value = try await withDeadline(.now + .seconds(30), timedOut: { TimedOut() }) { 42 }
        #expect(value == 42)
        struct Broken: Error {}
        await #expect(throws: Broken.self) {
            try await withDeadline(.now + .seconds(30), timedOut: { TimedOut() }) { () async throws -> Int in
                throw Broken()
            }
        }
    }

    /// A search's sections share one timer: each one that outlives it fails at the deadline, the others give
    /// their own results, and an operation started after it passed fails at once.
    @Test(.timeLimit(.minutes(1))) func operationsSharingADeadlineEachEndByIt() async throws {
        let deadline = SharedDeadline(.now + .milliseconds(200))
        let (stuck, alsoStuck) = (Gate(), Gate())
        let first = Task {
            try await deadline.run(timedOut: { TimedOut() }) {
                await stuck.wait()
                return 1
            }
        }
        let second = Task {
            try await deadline.run(timedOut: { TimedOut() }) {
                await alsoStuck.wait()
                return 2
            }
        }
        #expect(try await deadline.run(timedOut: { TimedOut() }) { 3 } == 3)
        struct Broken: Error {}
        await #expect(throws: Broken.self) {
            try await deadline.run(timedOut: { TimedOut() }) { () async throws -> Int in throw Broken() }
        }
        await #expect(throws: TimedOut.self) { try await first.value }
        await #expect(throws: TimedOut.self) { try await second.value }
        #expect(ContinuousClock.now >= deadline.instant)
        await #expect(throws: TimedOut.self) { try await deadline.run(timedOut: { TimedOut() }) { 4 } }
        stuck.open()
        alsoStuck.open()
    }
}
