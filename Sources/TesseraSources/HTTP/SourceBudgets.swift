import TesseraCore

/// The request budgets `SourceHTTP` keeps to: where they are counted, and each source's. A source without an
/// entry has no budget (a stand-in, a private mirror; docs/sources.md, "Request budgets").
public struct SourceBudgets: Sendable {
    public let store: any RequestBudgeting
    public let budgets: [SourceID: RequestBudget]
    /// How long a source is left alone after it said "slow down" without saying for how long.
    public let defaultPause: Duration

    public init(store: any RequestBudgeting, budgets: [SourceID: RequestBudget], defaultPause: Duration = .seconds(60))
    {
        self.store = store
        self.budgets = budgets
        self.defaultPause = defaultPause
    }
}

extension SourceHTTP {
    /// Counts one request to `source` before it is sent: `nil` when it may go, else the failure to answer with
    /// (a pause the service asked for, or the budget spent).
    func takeBudget(_ source: SourceID) async -> SourceError? {
        guard let budgets, let budget = budgets.budgets[source] else { return nil }
        switch await budgets.store.take(budget) {
        case .granted:
            return nil
        case .paused(let retryAfter):
            metrics.refused(source, reason: "paused")
            logger.debug("source paused", metadata: ["source": "\(source.rawValue)", "retry_after": "\(retryAfter)"])
            return .rateLimited(source, retryAfter: retryAfter)
        case .exhausted(let retryAfter):
            metrics.refused(source, reason: "budget")
            logger.info(
                "source request budget spent",
                metadata: [
                    "source": "\(source.rawValue)", "budget": "\(budget.limits)", "retry_after": "\(retryAfter)",
                ])
            return .overBudget(source, retryAfter: retryAfter)
        }
    }

    /// Leaves `source` alone for `seconds` (the service's own figure), or the default pause when it gave none.
    func pause(_ source: SourceID, seconds: Int?) async {
        guard let budgets, let budget = budgets.budgets[source] else { return }
        let wait = ServiceNumbers.wait(seconds).map(Double.init) ?? budgets.defaultPause.seconds
        guard wait > 0 else { return }
        metrics.paused(source)
        logger.notice(
            "source asked Tessera to wait; pausing it",
            metadata: ["source": "\(source.rawValue)", "seconds": "\(wait)"])
        await budgets.store.pause(budget, seconds: wait)
    }
}
