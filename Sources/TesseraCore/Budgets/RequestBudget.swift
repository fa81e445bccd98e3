import Foundation

/// At most `count` requests in any `seconds` long stretch of time: a sliding window, not a calendar one, so a
/// service never sees a burst of twice its limit across the turn of a minute.
public struct BudgetLimit: Sendable, Hashable, CustomStringConvertible {
    public var count: Int
    public var seconds: Int

    public init(count: Int, seconds: Int) {
        self.count = count
        self.seconds = seconds
    }

    public static func perMinute(_ count: Int) -> BudgetLimit { BudgetLimit(count: count, seconds: 60) }
    public static func perHour(_ count: Int) -> BudgetLimit { BudgetLimit(count: count, seconds: 3600) }
    public static func perDay(_ count: Int) -> BudgetLimit { BudgetLimit(count: count, seconds: 86_400) }

    private static let units: [(seconds: Int, names: [String])] = [
        (1, ["s", "sec"]), (60, ["min", "m"]), (3600, ["h", "hour"]), (86_400, ["d", "day"]),
    ]

    /// `100/min`, `3600/h`, `5/h`: the form the settings take.
    public var description: String {
        let unit = Self.units.first { $0.seconds == seconds }?.names.first
        return unit.map { "\(count)/\($0)" } ?? "\(count) per \(seconds) s"
    }

    /// Reads a budget setting: limits separated by commas (`5/h,100/d`), each `N/s`, `N/min`, `N/h` or `N/d`;
    /// `off` is no budget (an empty list). `nil` when the text is none of these.
    public static func parseList(_ text: String) -> [BudgetLimit]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "off" { return [] }
        var limits: [BudgetLimit] = []
        for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count == 2, let count = Int(pieces[0].trimmingCharacters(in: .whitespaces)),
                (1...10_000_000).contains(count)
            else { return nil }
            let name = pieces[1].trimmingCharacters(in: .whitespaces)
            guard let unit = units.first(where: { $0.names.contains(name) }) else { return nil }
            limits.append(BudgetLimit(count: count, seconds: unit.seconds))
        }
        return limits.isEmpty ? nil : limits
    }
}

/// One service's request budget: the limits its terms set, and the name it is counted under. The name is the
/// source and, for a keyed service, a fingerprint of the key (never the key): servers with the same key share
/// one budget, a new key starts a new one.
public struct RequestBudget: Sendable, Hashable {
    public var name: String
    public var source: SourceID
    public var limits: [BudgetLimit]

    public init(name: String, source: SourceID, limits: [BudgetLimit]) {
        self.name = name
        self.source = source
        self.limits = limits
    }
}

/// Whether one more request may go to a service now.
public enum BudgetDecision: Sendable, Hashable {
    /// Counted: send it.
    case granted
    /// The budget is spent; one more fits in `retryAfter` seconds.
    case exhausted(retryAfter: Int)
    /// The service asked Tessera to wait (429, `Retry-After`); the pause ends in `retryAfter` seconds.
    case paused(retryAfter: Int)
}

/// Where request budgets are counted, shared by every user of the server (and, on PostgreSQL, by every server
/// on the database): `TesseraSources.SourceHTTP` asks before each request it sends. The engines are
/// `MemoryRequestBudgets` (one server) and `TesseraPostgres.PostgresRequestBudgets` (several).
public protocol RequestBudgeting: Sendable {
    /// Counts one request against `budget` when it fits and the service has not asked to wait; otherwise
    /// counts nothing and says how long to wait.
    func take(_ budget: RequestBudget) async -> BudgetDecision
    /// Sends nothing under `budget` for `seconds` from now; a longer pause already set stays.
    func pause(_ budget: RequestBudget, seconds: Double) async
}
