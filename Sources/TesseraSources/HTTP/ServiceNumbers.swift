/// Numbers read from a service's answer, bounded before anything is computed from them or shown
/// (docs/sources.md, "Numbers in answers"). A service's figure is informative: one out of range is
/// dropped (read as unknown) or clamped, never trusted into arithmetic that could overflow.
enum ServiceNumbers {
    /// The longest wait a service may ask for: a day. A `Retry-After` of `Int.max` seconds is a day.
    static let longestWait = 24 * 60 * 60
    /// The largest pixel side believed: no photo or rendition is a million pixels wide.
    static let largestSide = 1_000_000
    /// The longest duration shown: 1,000 hours, longer than any film or album.
    static let longestMilliseconds = 1_000 * 60 * 60 * 1_000
    /// The highest price shown; anything above is no store's price.
    static let highestPrice = 1_000_000_000.0
    /// The latest time believed, in Unix seconds: the end of the year 9999.
    static let latestUnixSeconds = 253_402_300_799

    /// A wait in seconds, clamped to `0...longestWait`.
    static func wait(_ seconds: Int?) -> Int? {
        seconds.map { min(max(0, $0), longestWait) }
    }

    /// A count of results: `nil` when negative.
    static func total(_ count: Int?) -> Int? {
        count.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// A pixel side: `nil` unless in `1...largestSide`.
    static func side(_ pixels: Int?) -> Int? {
        pixels.flatMap { (1...largestSide).contains($0) ? $0 : nil }
    }

    /// A size in bytes: `nil` when negative.
    static func bytes(_ count: Int?) -> Int? {
        count.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// A duration in milliseconds: `nil` unless in `1...longestMilliseconds`.
    static func milliseconds(_ value: Int?) -> Int? {
        value.flatMap { (1...longestMilliseconds).contains($0) ? $0 : nil }
    }

    /// A price: `nil` when not finite or above `highestPrice` (a negative price keeps its meaning: not sold
    /// on its own).
    static func price(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite && $0 <= highestPrice ? $0 : nil }
    }
}
