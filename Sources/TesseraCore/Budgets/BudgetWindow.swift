/// The counting both budget engines share. Each limit's period is cut into `slotsPerPeriod` slots, numbered
/// from the Unix epoch; a request is counted in the slot of its moment. One more request fits when the current
/// slot and the `slotsPerPeriod` before it hold fewer than `count`: they span at least a whole period, so no
/// stretch of `seconds` ever holds more than `count` requests (the price: up to one slot's worth of waiting
/// more than strictly needed).
public enum BudgetWindow {
    public static let slotsPerPeriod = 20

    /// Requests counted per slot number, for one limit.
    public typealias Counts = [Int64: Int]

    public static func slotLength(_ limit: BudgetLimit) -> Double {
        Double(limit.seconds) / Double(slotsPerPeriod)
    }

    /// The slot `moment` (seconds since the epoch) falls in.
    public static func slot(_ limit: BudgetLimit, at moment: Double) -> Int64 {
        Int64((moment / slotLength(limit)).rounded(.down))
    }

    /// The oldest slot that still counts at `moment`; older ones can be forgotten.
    public static func oldestCounted(_ limit: BudgetLimit, at moment: Double) -> Int64 {
        slot(limit, at: moment) - Int64(slotsPerPeriod)
    }

    /// `nil` when one more request fits under `limit` at `moment`; otherwise the seconds until it will.
    public static func wait(_ limit: BudgetLimit, counts: Counts, at moment: Double) -> Double? {
        let current = slot(limit, at: moment)
        let window = (current - Int64(slotsPerPeriod))...current
        let used = window.reduce(0) { $0 + (counts[$1] ?? 0) }
        guard used >= limit.count else { return nil }
        // The oldest requests leave first: wait until enough slots have dropped out of the window.
        var excess = used - limit.count + 1
        for index in window {
            excess -= counts[index] ?? 0
            if excess <= 0 {
                return Double(index + Int64(slotsPerPeriod) + 1) * slotLength(limit) - moment
            }
        }
        return Double(limit.seconds)
    }

    /// The decision for `limits` given each one's counts (in the same order): granted, or exhausted with the
    /// longest wait among the limits that are spent, in whole seconds (at least 1).
    public static func decide(_ limits: [BudgetLimit], counts: [Counts], at moment: Double) -> BudgetDecision {
        let waits = zip(limits, counts).compactMap { wait($0, counts: $1, at: moment) }
        guard let longest = waits.max() else { return .granted }
        return .exhausted(retryAfter: wholeSeconds(longest))
    }

    /// Seconds rounded up, at least 1 and at most a month: what `Retry-After` and the API say. The bound keeps a
    /// wait read from elsewhere (a service's header, a pause another server stored) from trapping in the
    /// conversion; NaN reads as 1.
    public static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return seconds > 0 ? longestWait : 1 }
        return Int(min(max(seconds.rounded(.up), 1), Double(longestWait)))
    }

    /// The longest wait said: 31 days, the longest window a budget has.
    public static let longestWait = 31 * 86_400
}
