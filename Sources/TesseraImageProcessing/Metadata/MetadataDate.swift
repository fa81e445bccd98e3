import Foundation

/// The date formats of EXIF, XMP and IPTC, read into `Date`s. A time without an offset is read in the
/// given zone: cameras record local wall-clock time, and the library's owner is most likely in that zone.
enum MetadataDate {
    /// `"2021:06:01 12:34:56"`, with EXIF 2.31's `"+02:00"` offset when there is one.
    static func exif(_ value: String, offset: String?, _ timeZone: TimeZone) -> Date? {
        let numbers = value.split { $0 == ":" || $0 == " " || $0 == "-" }.map { Int($0) }
        guard numbers.count == 6 else { return nil }
        // A malformed offset is no offset: the wall-clock time is still right.
        let offset = offset.flatMap(offsetSeconds)
        return date(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5], offset, timeZone)
    }

    /// XMP's ISO 8601 subset: `"2021"`, `"2021-06"`, `"2021-06-01"`, `"2021-06-01T12:34"`,
    /// `"2021-06-01T12:34:56.78+02:00"`, `"...Z"`.
    static func iso8601(_ value: String, _ timeZone: TimeZone) -> Date? {
        var text = Substring(value)
        var offset: Int?
        if text.hasSuffix("Z") {
            offset = 0
            text = text.dropLast()
        } else if text.count > 10, let sign = text.lastIndex(where: { $0 == "+" || $0 == "-" }),
            text.distance(from: text.startIndex, to: sign) > 10
        {
            guard let seconds = offsetSeconds(String(text[sign...])) else { return nil }
            offset = seconds
            text = text[..<sign]
        }
        let parts = text.split { $0 == "-" || $0 == "T" || $0 == ":" }
        // Fractions of a second are dropped.
        let numbers = parts.enumerated().map { index, part in Int(index == 5 ? part.prefix { $0 != "." } : part) }
        guard !numbers.isEmpty, numbers.count <= 6, numbers.allSatisfy({ $0 != nil }) else { return nil }
        func at(_ index: Int, _ fallback: Int) -> Int { index < numbers.count ? numbers[index]! : fallback }
        return date(at(0, 0), at(1, 1), at(2, 1), at(3, 0), at(4, 0), at(5, 0), offset, timeZone)
    }

    /// IPTC's `"20210601"` and, when present, `"123456+0200"`.
    static func iptc(_ day: String, time: String?, _ timeZone: TimeZone) -> Date? {
        let digits = Array(day.utf8)
        guard digits.count == 8, let year = Int(day.prefix(4)), let month = Int(day.dropFirst(4).prefix(2)),
            let dayOfMonth = Int(day.suffix(2))
        else { return nil }
        guard let time, time.count >= 6, let hour = Int(time.prefix(2)), let minute = Int(time.dropFirst(2).prefix(2)),
            let second = Int(time.dropFirst(4).prefix(2))
        else { return date(year, month, dayOfMonth, 0, 0, 0, nil, timeZone) }
        let zone = time.count >= 11 ? offsetSeconds(String(time.dropFirst(6))) : nil
        return date(year, month, dayOfMonth, hour, minute, second, zone, timeZone)
    }

    /// `"+02:00"`, `"-0530"` → seconds east of UTC.
    private static func offsetSeconds(_ text: String) -> Int? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard digits.count == 4, let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)),
            hours <= 14, minutes < 60
        else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    private static func date(
        _ year: Int?, _ month: Int?, _ day: Int?, _ hour: Int?, _ minute: Int?, _ second: Int?, _ offset: Int?,
        _ timeZone: TimeZone
    ) -> Date? {
        // "0000:00:00 00:00:00" is how cameras with an unset clock say "unknown".
        guard let year, let month, let day, let hour, let minute, let second, (1800...2200).contains(year),
            (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = offset.flatMap { TimeZone(secondsFromGMT: $0) } ?? timeZone
        let components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        return calendar.date(from: components)
    }
}
