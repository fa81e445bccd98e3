import Synchronization

/// Answers of a pure function kept for the next time it is asked, at most `limit` of them (all are let go
/// when full: the keys come from outside, and a page asks only a few). For readings every item of every
/// answer asks, such as a licence's (`Licenses`, `LicenseNames`).
public final class KeptAnswers<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let answers = Mutex<[Key: Value]>([:])
    private let limit: Int

    public init(limit: Int = 1024) {
        self.limit = limit
    }

    /// The kept answer to `key`, else `answer(key)`, kept. `answer` runs outside the lock.
    public func value(for key: Key, _ answer: (Key) -> Value) -> Value {
        if let kept = answers.withLock({ $0[key] }) { return kept }
        let value = answer(key)
        answers.withLock { answers in
            if answers.count >= limit { answers.removeAll(keepingCapacity: true) }
            answers[key] = value
        }
        return value
    }
}
