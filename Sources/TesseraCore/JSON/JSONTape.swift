/// A JSON document scanned once into a flat list of values (a "tape"), which `FastJSONDecoder` reads
/// without building a dictionary per object or a string per key, as `JSONDecoder` does.
///
/// The scan is strict on purpose: anything `JSONDecoder` might read differently (a byte-order mark, invalid
/// UTF-8, a lone surrogate escape, nesting past 512) is refused, and the caller falls back to `JSONDecoder`,
/// so a document either decodes here exactly as it would there, or goes there.
struct JSONTape {
    enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null
    }

    /// One value. Strings and numbers are byte ranges of the document (a string's without its quotes);
    /// an object's entries follow it as key, value, key, value...; `next` is the index after the value
    /// with everything inside it.
    struct Entry {
        var kind: Kind
        /// A string with a backslash escape; a number with a fraction or an exponent.
        var flagged: Bool
        var start: Int32
        var end: Int32
        var next: Int32
        /// Elements of an array, pairs of an object.
        var count: Int32
    }

    struct Refused: Error {}

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var entries: [Entry] = []
    private var position = 0
    static let maxDepth = 512

    /// Scans the whole document; throws `Refused` for anything but one well-formed UTF-8 JSON value.
    init(_ bytes: UnsafeBufferPointer<UInt8>) throws(Refused) {
        self.bytes = bytes
        // A rough guess: one entry per 12 bytes of a typical API answer.
        entries.reserveCapacity(bytes.count / 12 + 16)
        skipSpace()
        try value(depth: 0)
        skipSpace()
        guard position == bytes.count, bytes.count < Int(Int32.max) else { throw Refused() }
    }

    // MARK: - Scanning

    private var peek: UInt8 { position < bytes.count ? bytes[position] : 0 }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func append(_ kind: Kind, from start: Int, flagged: Bool = false) {
        let index = Int32(entries.count)
        entries.append(
            Entry(
                kind: kind, flagged: flagged, start: Int32(start), end: Int32(position), next: index + 1, count: 0))
    }

    private mutating func value(depth: Int) throws(Refused) {
        switch peek {
        case UInt8(ascii: "{"): try container(depth: depth + 1, object: true)
        case UInt8(ascii: "["): try container(depth: depth + 1, object: false)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "t"): try literal("true", .true)
        case UInt8(ascii: "f"): try literal("false", .false)
        case UInt8(ascii: "n"): try literal("null", .null)
        default: throw Refused()
        }
    }

    private mutating func container(depth: Int, object: Bool) throws(Refused) {
        guard depth <= Self.maxDepth else { throw Refused() }
        let index = entries.count
        append(object ? .object : .array, from: position)
        position += 1
        skipSpace()
        let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
        var count: Int32 = 0
        if peek == close {
            position += 1
        } else {
            while true {
                if object {
                    guard peek == UInt8(ascii: "\"") else { throw Refused() }
                    try string()
                    skipSpace()
                    guard peek == UInt8(ascii: ":") else { throw Refused() }
                    position += 1
                    skipSpace()
                }
                try value(depth: depth)
                count += 1
                skipSpace()
                if peek == UInt8(ascii: ",") {
                    position += 1
                    skipSpace()
                } else if peek == close {
                    position += 1
                    break
                } else {
                    throw Refused()
                }
            }
        }
        entries[index].count = count
        entries[index].end = Int32(position)
        entries[index].next = Int32(entries.count)
    }

    private mutating func literal(_ word: StaticString, _ kind: Kind) throws(Refused) {
        let start = position
        let length = word.utf8CodeUnitCount
        guard position + length <= bytes.count else { throw Refused() }
        for offset in 0..<length where bytes[position + offset] != word.utf8Start[offset] { throw Refused() }
        position += length
        append(kind, from: start)
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, nothing looser.
    private mutating func number() throws(Refused) {
        let start = position
        if peek == UInt8(ascii: "-") { position += 1 }
        if peek == UInt8(ascii: "0") {
            position += 1
        } else {
            guard try digits() > 0 else { throw Refused() }
        }
        var flagged = false
        if peek == UInt8(ascii: ".") {
            position += 1
            guard try digits() > 0 else { throw Refused() }
            flagged = true
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard try digits() > 0 else { throw Refused() }
            flagged = true
        }
        append(.number, from: start, flagged: flagged)
    }

    private mutating func digits() throws(Refused) -> Int {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            position += 1
        }
        return position - start
    }

    /// A string's bytes checked as they pass: escapes well formed (a `\u` surrogate only in a pair), no
    /// raw control characters, UTF-8 valid.
    private mutating func string() throws(Refused) {
        position += 1
        let start = position
        var escaped = false
        while true {
            guard position < bytes.count else { throw Refused() }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try escape()
            } else if byte < 0x20 {
                throw Refused()
            } else if byte < 0x80 {
                position += 1
            } else {
                position += try utf8Sequence(at: position)
            }
        }
        let end = position
        position += 1
        entries.append(
            Entry(
                kind: .string, flagged: escaped, start: Int32(start), end: Int32(end), next: Int32(entries.count + 1),
                count: 0))
    }

    private mutating func escape() throws(Refused) {
        position += 1
        guard position < bytes.count else { throw Refused() }
        switch bytes[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            let unit = try hex4(at: position + 1)
            position += 5
            if (0xD800..<0xDC00).contains(unit) {
                // A high surrogate must be followed by a low one.
                guard peek == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u"),
                    (0xDC00..<0xE000).contains(try hex4(at: position + 2))
                else { throw Refused() }
                position += 6
            } else if (0xDC00..<0xE000).contains(unit) {
                throw Refused()
            }
        default:
            throw Refused()
        }
    }

    func hex4(at offset: Int) throws(Refused) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw Refused() }
        var value: UInt32 = 0
        for index in offset..<(offset + 4) {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Refused()
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `offset` (no overlong forms, surrogates or values
    /// past U+10FFFF).
    private func utf8Sequence(at offset: Int) throws(Refused) -> Int {
        let lead = bytes[offset]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: throw Refused()
        }
        guard offset + length <= bytes.count, (low...high).contains(bytes[offset + 1]) else { throw Refused() }
        for index in (offset + 2)..<(offset + length) where !(0x80...0xBF).contains(bytes[index]) {
            throw Refused()
        }
        return length
    }
}
