import Synchronization

/// Runs `operation` until `deadline`. At the deadline it returns `timedOut()`'s error at once and cancels
/// the operation without waiting for it to notice: a task group would wait, and some work (a TCP connect
/// stuck in the kernel, inside an HTTP client) only notices at its own, later timeout. A deadline already
/// passed is `timedOut()` at once, without starting the operation.
///
/// The timer is cancelled as soon as the operation ends: on Linux a sleeping task's timer otherwise stays
/// armed in Dispatch until its time comes. (A search's sections share one timer through `SearchService`.)
public func withDeadline<T: Sendable>(
    _ deadline: ContinuousClock.Instant, timedOut: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    guard deadline > .now else { throw timedOut() }
    let outcome = FirstOutcome<T>()
    let timer = Task {
        try? await Task.sleep(until: deadline, clock: .continuous)
        if !Task.isCancelled { outcome.settle(.failure(timedOut())) }
    }
    let work = Task { await outcome.settle { try await operation() } }
    defer {
        timer.cancel()
        work.cancel()
    }
    return try await withTaskCancellationHandler {
        try await outcome.value
    } onCancel: {
        outcome.settle(.failure(CancellationError()))
    }
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
