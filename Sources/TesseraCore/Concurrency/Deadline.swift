import Synchronization

/// Runs `operation` until `deadline`. At the deadline it returns `timedOut()`'s error at once and cancels
/// the operation without waiting for it to notice: a task group would wait, and some work (a TCP connect
/// stuck in the kernel, inside an HTTP client) only notices at its own, later timeout.
public func withDeadline<T: Sendable>(
    _ deadline: ContinuousClock.Instant, timedOut: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let shared = SharedDeadline(deadline)
    defer { shared.finish() }
    return try await shared.run(timedOut: timedOut, operation)
}

/// The first result handed in wins; whoever waits gets it, whether it came before or after they asked.
final class FirstOutcome<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<T, any Error>?
    }

    private let state = Mutex(State())

    func settle(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<T, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    func settle(_ body: () async throws -> T) async {
        do {
            settle(.success(try await body()))
        } catch {
            settle(.failure(error))
        }
    }

    var value: T {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<T, any Error>? in
                    if let result = state.result { return result }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }
}

/// One deadline for several operations that end together, each run as `withDeadline` describes, with one timer
/// between them (`withDeadline` is one operation on one of these). On Linux a sleeping task's timer stays armed
/// in Dispatch until its time comes, even once the task is cancelled: a timer per section of a search kept eight
/// timers a search alive for the whole source time limit, and Dispatch's timer thread took about a sixth of a
/// busy server's CPU. (A search's sections now share one timer through `SearchService` itself.)
public final class SharedDeadline: Sendable {
    public let instant: ContinuousClock.Instant

    private struct State {
        var passed = false
        var waiting: [Int: @Sendable () -> Void] = [:]
        var next = 0
        var timer: Task<Void, Never>?
    }

    private let state = Mutex(State())

    public init(_ instant: ContinuousClock.Instant) {
        self.instant = instant
        let timer = Task { [weak self] in
            try? await Task.sleep(until: instant, clock: .continuous)
            if !Task.isCancelled { self?.pass() }
        }
        state.withLock { $0.timer = timer }
    }

    deinit {
        finish()
    }

    /// Stops the timer: nothing runs under this deadline any more.
    public func finish() {
        state.withLock { $0.timer }?.cancel()
    }

    /// Runs `operation` until `instant`, as `withDeadline` says, on this deadline's timer; at once `timedOut()`
    /// when the deadline has passed.
    public func run<T: Sendable>(
        timedOut: @escaping @Sendable () -> any Error, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = FirstOutcome<T>()
        let token = state.withLock { state -> Int? in
            guard !state.passed else { return nil }
            defer { state.next += 1 }
            state.waiting[state.next] = { outcome.settle(.failure(timedOut())) }
            return state.next
        }
        guard let token else { throw timedOut() }
        let work = Task { await outcome.settle { try await operation() } }
        defer {
            work.cancel()
            state.withLock { _ = $0.waiting.removeValue(forKey: token) }
        }
        return try await withTaskCancellationHandler {
            try await outcome.value
        } onCancel: {
            outcome.settle(.failure(CancellationError()))
        }
    }

    private func pass() {
        let waiting = state.withLock { state in
            state.passed = true
            defer { state.waiting = [:] }
            return state.waiting
        }
        for expire in waiting.values { expire() }
    }
}
