import Foundation
import TesseraCore
import TesseraPostgres
import TesseraTestSupport
import Testing

/// The request budget's contract, on both engines: in memory (one server) and in PostgreSQL (several). Periods
/// are long enough that nothing refills while a test runs; the window's sliding is tested with a moved clock in
/// TesseraCoreTests.
@Suite("Request budgets on both engines")
struct RequestBudgetContractTests {
    /// Runs `body` with a factory of budget stores: each call is another "server" (on PostgreSQL, on one database).
    private func withBudgets(
        _ engine: Engine,
        _ body: @escaping @Sendable (_ open: @escaping @Sendable () -> any RequestBudgeting) async throws -> Void
    ) async throws {
        switch engine {
        case .sqlite:
            let shared = MemoryRequestBudgets()
            try await body { shared }
        case .postgres:
            let server = try requirePostgres()
            try await TestPostgres.withRunningDatabase(on: server, poolSize: 8) { database in
                try await body { PostgresRequestBudgets(database: database, logger: quietLogger) }
            }
        }
    }

    private static let pixabay = RequestBudget(name: "pixabay:0123456789ab", source: .pixabay, limits: [.perHour(5)])

    @Test(arguments: Engine.allCases)
    func takesUpToTheLimitThenSaysHowLongToWait(engine: Engine) async throws {
        try await withBudgets(engine) { open in
            let budgets = open()
            for _ in 0..<5 { #expect(await budgets.take(Self.pixabay) == .granted) }
            for _ in 0..<3 {
                guard case .exhausted(let wait) = await budgets.take(Self.pixabay) else {
                    Issue.record("past the budget must be refused")
                    return
                }
                #expect((1...3_600 + 180).contains(wait))
            }
            let otherKey = RequestBudget(name: "pixabay:ba9876543210", source: .pixabay, limits: [.perHour(5)])
            #expect(await budgets.take(otherKey) == .granted, "another key counts apart")
            let both = RequestBudget(name: "openverse", source: .openverse, limits: [.perDay(100), .perHour(2)])
            #expect(await budgets.take(both) == .granted)
            #expect(await budgets.take(both) == .granted)
            #expect(await budgets.take(both) != .granted, "the tighter of two limits holds")
        }
    }

    @Test(arguments: Engine.allCases)
    func concurrentTakersNeverGetMoreThanTheBudget(engine: Engine) async throws {
        try await withBudgets(engine) { open in
            let servers = [open(), open(), open()]
            let budget = RequestBudget(name: "flickr:feedfacecafe", source: .flickr, limits: [.perHour(7)])
            let granted = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<40 {
                    let budgets = servers[index % servers.count]
                    group.addTask { await budgets.take(budget) == .granted }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(granted == 7)
        }
    }

    @Test(arguments: Engine.allCases)
    func aPauseHoldsForEveryServerAndOnlyForItsBudget(engine: Engine) async throws {
        try await withBudgets(engine) { open in
            let (first, second) = (open(), open())
            let itunes = RequestBudget(name: "itunes", source: .itunes, limits: [])
            #expect(await second.take(itunes) == .granted)
            await first.pause(itunes, seconds: 600)
            await first.pause(itunes, seconds: 60)
            guard case .paused(let wait) = await second.take(itunes) else {
                Issue.record("a paused source must be refused")
                return
            }
            #expect((590...600).contains(wait), "the longer pause stays: \(wait)")
            #expect(await second.take(Self.pixabay) == .granted)
        }
    }
}
