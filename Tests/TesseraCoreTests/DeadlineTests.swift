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

    /// A deadline already passed fails at once, and the operation is never started.
    @Test func aDeadlineAlreadyPassedFailsWithoutStartingTheWork() async {
        let started = Mutex(false)
        await #expect(throws: TimedOut.self) {
            try await withDeadline(.now - .milliseconds(1), timedOut: { TimedOut() }) {
                started.withLock { $0 = true }
                return 4
            }
        }
        #expect(started.withLock { $0 } == false)
    }
}
