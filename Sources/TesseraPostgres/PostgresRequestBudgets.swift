import Foundation
import Logging
import PostgresNIO
import TesseraCore

/// Request budgets counted in PostgreSQL, so that every server on the database together stays within one
/// budget per service (docs/cluster.md, "PostgreSQL").
///
/// Each take is one short transaction: an upsert of the budget's row in `source_budget` locks it (servers
/// asking for the same budget queue there, so two never both take the last request) and returns its pause;
/// then the slots of `source_budget_slot` are read, counted (`BudgetWindow`, as in memory) and, when the
/// request fits, incremented. Moments come from the database's clock, one clock for all servers.
///
/// When the database cannot be asked, nothing is sent: the request is refused for a few seconds rather than
/// risk going past the budget.
public final class PostgresRequestBudgets: RequestBudgeting {
    private let database: PostgresAppDatabase
    private let logger: Logger
    /// What a refusal says when the database did not answer.
    static let unavailableRetry = 5

    public init(database: PostgresAppDatabase, logger: Logger = Logger(label: "tessera.budgets")) {
        self.database = database
        self.logger = logger
    }

    public func take(_ budget: RequestBudget) async -> BudgetDecision {
        do {
            return try await database.withConnection { connection in
                try await connection.withTransaction(logger: .quiet) { connection in
                    try await Self.take(budget, on: connection)
                }
            }
        } catch {
            logger.warning(
                "request budget unreadable; refusing the request",
                metadata: ["budget": "\(budget.name)", "error": "\(String(reflecting: error))"])
            return .exhausted(retryAfter: Self.unavailableRetry)
        }
    }

    public func pause(_ budget: RequestBudget, seconds: Double) async {
        let name = budget.name
        do {
            try await database.withConnection { connection in
                try await connection.query(
                    """
                    INSERT INTO source_budget (budget, paused_until)
                    VALUES (\(name), extract(epoch FROM clock_timestamp())::double precision + \(seconds))
                    ON CONFLICT (budget) DO UPDATE
                    SET paused_until = greatest(source_budget.paused_until, excluded.paused_until)
                    """, logger: .quiet)
                return ()
            }
        } catch {
            logger.warning(
                "could not record a source's pause", metadata: ["budget": "\(name)", "error": "\(error)"])
        }
    }

    private static func take(_ budget: RequestBudget, on connection: PostgresConnection) async throws
        -> BudgetDecision
    {
        let name = budget.name
        // Creates the row or locks it (a no-op update still takes the row lock) until the transaction ends.
        var pausedUntil = 0.0
        var moment = 0.0
        for try await (until, now) in try await connection.query(
            """
            INSERT INTO source_budget (budget, paused_until) VALUES (\(name), 0)
            ON CONFLICT (budget) DO UPDATE SET paused_until = source_budget.paused_until
            RETURNING paused_until, extract(epoch FROM clock_timestamp())::double precision
            """, logger: .quiet
        ).decode((Double, Double).self) {
            (pausedUntil, moment) = (until, now)
        }
        if pausedUntil > moment { return .paused(retryAfter: BudgetWindow.wholeSeconds(pausedUntil - moment)) }
        guard !budget.limits.isEmpty else { return .granted }

        // Read after the lock: in READ COMMITTED each statement sees what the previous holder committed.
        var counts: [Int: BudgetWindow.Counts] = [:]
        for try await (period, slot, count) in try await connection.query(
            "SELECT period, slot, count FROM source_budget_slot WHERE budget = \(name)", logger: .quiet
        ).decode((Int, Int64, Int).self) {
            counts[period, default: [:]][slot] = count
        }
        let decision = BudgetWindow.decide(
            budget.limits, counts: budget.limits.map { counts[$0.seconds] ?? [:] }, at: moment)
        guard decision == .granted else { return decision }
        for limit in budget.limits {
            let (period, slot) = (limit.seconds, BudgetWindow.slot(limit, at: moment))
            let oldest = BudgetWindow.oldestCounted(limit, at: moment)
            try await connection.query(
                """
                INSERT INTO source_budget_slot (budget, period, slot, count) VALUES (\(name), \(period), \(slot), 1)
                ON CONFLICT (budget, period, slot) DO UPDATE SET count = source_budget_slot.count + 1
                """, logger: .quiet)
            try await connection.query(
                "DELETE FROM source_budget_slot WHERE budget = \(name) AND period = \(period) AND slot < \(oldest)",
                logger: .quiet)
        }
        return .granted
    }
}
