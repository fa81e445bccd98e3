import Synchronization

/// A search's sections, each settled once: by its own task when its source ends, or at the search's deadline
/// (or when the search is cancelled) by a stand-in result, whichever comes first; the loser is dropped.
/// The caller takes them in the order they settle.
///
/// Each section's task calls its source itself and settles here: a task group's child that ran the source in
/// a further task (to leave it at the deadline) cost two hops between threads on the slowest section's
/// path, before its request and after its answer (docs/search.md, "Fan-out").
final class SectionInbox: Sendable {
    private struct State {
        var settled: [Bool]
        var ready: [SectionResult] = []
        var taken = 0
        var waiter: CheckedContinuation<SectionResult?, Never>?
    }

    private let state: Mutex<State>
    private let count: Int

    init(count: Int) {
        self.count = count
        state = Mutex(State(settled: Array(repeating: false, count: count)))
    }

    /// Hands in section `index`'s result; `false` when it was settled already (the deadline came first).
    func settle(_ index: Int, _ result: SectionResult) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<SectionResult?, Never>?) in
            guard !state.settled[index] else { return (false, nil) }
            state.settled[index] = true
            if let waiter = state.waiter {
                state.waiter = nil
                state.taken += 1
                return (true, waiter)
            }
            state.ready.append(result)
            return (true, nil)
        }
        waiter?.resume(returning: result)
        return accepted
    }

    /// Whether section `index` has been settled (its answer, if it comes now, is too late).
    func isSettled(_ index: Int) -> Bool {
        state.withLock { $0.settled[index] }
    }

    /// Settles every section not settled yet with `make(index)`; returns their indices.
    func settleRest(_ make: (Int) -> SectionResult) -> [Int] {
        (0..<count).filter { !isSettled($0) && settle($0, make($0)) }
    }

    /// The next section to settle, or `nil` once every one has been taken. One caller at a time.
    func next() async -> SectionResult? {
        await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> SectionResult?? in
                if !state.ready.isEmpty {
                    state.taken += 1
                    return .some(state.ready.removeFirst())
                }
                if state.taken == state.settled.count { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }
}
