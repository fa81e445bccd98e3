import Foundation
import Synchronization

/// Request budgets counted in this process: enough for one server on SQLite. Several servers on one
/// PostgreSQL database count in it instead (`TesseraPostgres.PostgresRequestBudgets`), so that together they
/// stay within one budget.
public final class MemoryRequestBudgets: RequestBudgeting {
    private struct LimitKey: Hashable {
        let name: String
        let seconds: Int
    }

    private struct State {
        var counts: [LimitKey: BudgetWindow.Counts] = [:]
        var pausedUntil: [String: Double] = [:]
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Date

    /// - Parameter now: the wall clock; tests pass their own.
    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    public func take(_ budget: RequestBudget) async -> BudgetDecision {
        let moment = now().timeIntervalSince1970
        return state.withLock { state in
            if let until = state.pausedUntil[budget.name], until > moment {
                return .paused(retryAfter: BudgetWindow.wholeSeconds(until - moment))
            }
            let keys = budget.limits.map { LimitKey(name: budget.name, seconds: $0.seconds) }
            for (key, limit) in zip(keys, budget.limits) {
                let oldest = BudgetWindow.oldestCounted(limit, at: moment)
                state.counts[key] = state.counts[key]?.filter { $0.key >= oldest }
            }
            let decision = BudgetWindow.decide(
                budget.limits, counts: keys.map { state.counts[$0] ?? [:] }, at: moment)
            if decision == .granted {
                for (key, limit) in zip(keys, budget.limits) {
                    state.counts[key, default: [:]][BudgetWindow.slot(limit, at: moment), default: 0] += 1
                }
            }
            return decision
        }
    }

    public func pause(_ budget: RequestBudget, seconds: Double) async {
        let until = now().timeIntervalSince1970 + seconds
        state.withLock { state in
            state.pausedUntil[budget.name] = max(state.pausedUntil[budget.name] ?? 0, until)
        }
    }
}
