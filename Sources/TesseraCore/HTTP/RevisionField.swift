/// A gallery revision as a client sends it back in a header: `If-Match` (`"17"`, `W/"17"` or a bare `17`)
/// and `Last-Event-ID` (`17`). Revisions count up from 1, so anything that is not a plain run of ASCII digits
/// that fits an `Int` (a sign, a fraction, spaces inside, more than 18 digits) cannot be one and is refused
/// here, before any value reaches code that counts or allocates by it. Leading zeros are read as a decimal
/// (`007` is 7); whitespace around the value is HTTP's and is dropped.
public enum RevisionField {
    /// The longest run of digits read: 18 always fits an `Int` (Int64's largest has 19).
    public static let maximumDigits = 18

    /// `Last-Event-ID`: `nil` when the header is absent or empty (a browser sends none after an empty id),
    /// `.invalid` when it is not a revision.
    public static func lastEventID(_ text: String?) -> Parsed {
        guard let text else { return .absent }
        let value = trimmed(Substring(text))
        guard !value.isEmpty else { return .absent }
        return digits(value).map(Parsed.revision) ?? .invalid
    }

    /// `If-Match`: absent and `*` (any revision) mean no condition; an empty value is no revision.
    public static func ifMatch(_ text: String?) -> Parsed {
        guard let text else { return .absent }
        var value = trimmed(Substring(text))
        guard value != "*" else { return .absent }
        if value.hasPrefix("W/\"") { value = value.dropFirst(2) }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
        return digits(value).map(Parsed.revision) ?? .invalid
    }

    public enum Parsed: Equatable, Sendable {
        case absent
        case revision(Int)
        case invalid
    }

    /// Spaces and tabs dropped by bytes: a space and a combining mark after it are one Character, which
    /// dropping Characters would take away whole.
    private static func trimmed(_ text: Substring) -> Substring {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = text.utf8.firstIndex(where: { !isBlank($0) }),
            let last = text.utf8.lastIndex(where: { !isBlank($0) })
        else { return text[text.endIndex...] }
        // `last` is a multi-byte scalar's last byte at worst: the byte after it starts a scalar.
        return text[first..<text.utf8.index(after: last)]
    }

    private static func digits(_ text: Substring) -> Int? {
        let bytes = text.utf8
        guard (1...maximumDigits).contains(bytes.count) else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}
