import Synchronization

/// Runs one piece of work per key at a time: callers that ask for a key already in flight wait for the
/// same result instead of starting the work again (one upstream fetch, one resize, however many asked).
///
/// The work runs in its own task, so a caller that goes away does not cancel it for the others; its result
/// usually ends up in a cache, where the next caller finds it.
final class Coalescer<Value: Sendable>: Sendable {
    private let inFlight = Mutex<[String: Task<Value, any Error>]>([:])

    func run(_ key: String, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let (task, started) = inFlight.withLock { tasks in
            if let task = tasks[key] { return (task, false) }
            let task = Task { try await work() }
            tasks[key] = task
            return (task, true)
        }
        if started {
            // The starter removes the entry once the work is over, whatever happened to the other callers.
            defer { inFlight.withLock { tasks in if tasks[key] == task { tasks[key] = nil } } }
            return try await task.value
        }
        return try await task.value
    }

    /// Keys in flight now, for tests.
    var inFlightCount: Int { inFlight.withLock { $0.count } }
}
