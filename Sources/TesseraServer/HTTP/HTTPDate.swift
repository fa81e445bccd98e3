import Synchronization

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// The `Date` header value (RFC 9110 IMF-fixdate), formatted at most once a second. Hummingbird sets it on
/// the responses its router makes; the image fast path answers below it and sets it with this.
final class HTTPDate: Sendable {
    private let cached = Mutex<(second: Int, text: String)>((-1, ""))

    var now: String {
        var seconds = time(nil)
        return cached.withLock { cached in
            if cached.second != seconds {
                cached = (seconds, Self.format(&seconds))
            }
            return cached.text
        }
    }

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(_ seconds: inout time_t) -> String {
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
