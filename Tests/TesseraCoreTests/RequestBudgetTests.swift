import Foundation
import Synchronization
import TesseraCore
import Testing

/// The budget arithmetic on an in-memory budget with a clock the test moves: the window slides, no stretch of
/// a period ever holds more than the limit, the wait it names is enough, and a pause holds until its end.
@Suite("Request budgets")
struct RequestBudgetTests {
    final class Clock: Sendable {
        private let moment = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: @Sendable () -> Date { { [self] in moment.withLock { $0 } } }
        func advance(_ seconds: Double) { moment.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    private let budget = RequestBudget(name: "pixabay:abc", source: .pixabay, limits: [.perMinute(5)])

    @Test func readsTheSettingForms() {
        #expect(BudgetLimit.parseList("100/min") == [.perMinute(100)])
        #expect(BudgetLimit.parseList(" 5/h, 100/d ") == [.perHour(5), .perDay(100)])
        #expect(BudgetLimit.parseList("2/s") == [BudgetLimit(count: 2, seconds: 1)])
        #expect(BudgetLimit.parseList("OFF") == [])
        for bad in ["", "100", "100/week", "0/min", "-1/h", "a/min", "5/h,", "5/h/2"] {
            #expect(BudgetLimit.parseList(bad) == nil, "\(bad)")
        }
        #expect(BudgetLimit.perHour(3600).description == "3600/h")
    }

    @Test func takesUpToTheLimitThenNamesAWaitThatIsEnough() async {
        let clock = Clock()
        let budgets = MemoryRequestBudgets(now: clock.now)
        for _ in 0..<5 { #expect(await budgets.take(budget) == .granted) }
        guard case .exhausted(let wait) = await budgets.take(budget) else {
            Issue.record("the sixth request in a minute must be refused")
            return
        }
        #expect((1...63).contains(wait), "at most a minute and one slot")
        clock.advance(Double(wait) - 1)
        #expect(await budgets.take(budget) != .granted, "not before the wait is over")
        clock.advance(1)
        #expect(await budgets.take(budget) == .granted)
        // Another key's budget is its own.
        let other = RequestBudget(name: "pixabay:def", source: .pixabay, limits: [.perMinute(5)])
        #expect(await budgets.take(other) == .granted)
    }

    @Test func noStretchOfAPeriodEverHoldsMoreThanTheLimit() async {
        let clock = Clock()
        let budgets = MemoryRequestBudgets(now: clock.now)
        let limits: [BudgetLimit] = [.perMinute(7), BudgetLimit(count: 3, seconds: 10)]
        let budget = RequestBudget(name: "itunes", source: .itunes, limits: limits)
        var granted: [Double] = []
        var generator = SplitMix64(seed: 42)
        for _ in 0..<3_000 {
            // Bursts and gaps: steps from 0 to 4 s.
            clock.advance(Double(generator.next() % 4_000) / 1_000)
            let moment = clock.now().timeIntervalSince1970
            if await budgets.take(budget) == .granted { granted.append(moment) }
        }
        #expect(granted.count > 100, "the budget is used, not just refused")
        for limit in limits {
            var start = 0
            for (end, moment) in granted.enumerated() {
                while granted[start] <= moment - Double(limit.seconds) { start += 1 }
                #expect(end - start + 1 <= limit.count, "\(end - start + 1) requests within \(limit)")
            }
        }
    }

    @Test func aPauseHoldsUntilItsEndAndALongerOneWins() async {
        let clock = Clock()
        let budgets = MemoryRequestBudgets(now: clock.now)
        await budgets.pause(budget, seconds: 120)
        await budgets.pause(budget, seconds: 30)
        #expect(await budgets.take(budget) == .paused(retryAfter: 120))
        clock.advance(119.5)
        #expect(await budgets.take(budget) == .paused(retryAfter: 1))
        clock.advance(0.5)
        #expect(await budgets.take(budget) == .granted)
        // A budget with no limits counts nothing but still pauses.
        let open = RequestBudget(name: "wikimedia", source: .wikimedia, limits: [])
        for _ in 0..<100 { #expect(await budgets.take(open) == .granted) }
        await budgets.pause(open, seconds: 5)
        #expect(await budgets.take(open) == .paused(retryAfter: 5))
    }

    @Test func refusalsSayWhenToComeBack() {
        #expect(SourceError.overBudget(.pixabay, retryAfter: 42).message.contains("try again in 42 s"))
        #expect(SourceError.overBudget(.openverse, retryAfter: 3_000).message.contains("in 50 min"))
        #expect(SourceError.rateLimited(.flickr, retryAfter: 7_500).message.contains("in 2 h 5 min"))
        #expect(SourceError.overBudget(.itunes, retryAfter: 9).code == "rate_limited")
        #expect(ErrorInfo(SourceError.overBudget(.itunes, retryAfter: 9)).retryAfter == 9)
        #expect(ErrorInfo(SourceError.timeout(.itunes, seconds: 8)).retryAfter == nil)
    }
}
