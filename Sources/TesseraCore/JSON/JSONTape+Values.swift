import Foundation

/// Reading one value of the tape as a Swift value, refusing exactly where `JSONDecoder` refuses and
/// reporting, as `unsure`, the few numbers whose reading there is too intricate to copy.
extension JSONTape {
    /// Where `JSONDecoder` reads a value in ways not copied here (a number with an exponent, an integer
    /// past 2^53, `Date`, `Data`, `URL`, `Decimal`, `Float`): the whole document goes to `JSONDecoder`.
    struct Unsure: Error {}

    func string(at index: Int) throws -> String {
        let entry = entries[index]
        guard entry.kind == .string else { throw mismatch(String.self, entry) }
        return text(entry)
    }

    /// A string entry's text, its escapes resolved (never longer than the raw bytes, so it is written
    /// straight into the new string's storage).
    func text(_ entry: Entry) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)])
        guard entry.flagged else { return String(decoding: raw, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: raw.count) { output in
            var written = 0
            var offset = 0
            func put(_ byte: UInt8) {
                output[written] = byte
                written += 1
            }
            while offset < raw.count {
                // The run up to the next escape, copied at once.
                var run = offset
                while run < raw.count && raw[run] != UInt8(ascii: "\\") { run += 1 }
                if run > offset {
                    let chunk = UnsafeBufferPointer(rebasing: raw[offset..<run])
                    _ = UnsafeMutableBufferPointer(rebasing: output[written...]).initialize(fromContentsOf: chunk)
                    written += run - offset
                    offset = run
                    continue
                }
                let code = raw[offset + 1]
                offset += 2
                switch code {
                case UInt8(ascii: "b"): put(0x08)
                case UInt8(ascii: "f"): put(0x0C)
                case UInt8(ascii: "n"): put(0x0A)
                case UInt8(ascii: "r"): put(0x0D)
                case UInt8(ascii: "t"): put(0x09)
                case UInt8(ascii: "u"):
                    // Checked by the scan: four hex digits, surrogates only in pairs.
                    let base = Int(entry.start) + offset
                    var scalar = (try? hex4(at: base)) ?? 0xFFFD
                    offset += 4
                    if (0xD800..<0xDC00).contains(scalar) {
                        let low = (try? hex4(at: base + 6)) ?? 0xDC00
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        offset += 6
                    }
                    for byte in UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")! { put(byte) }
                default: put(code)
                }
            }
            return written
        }
    }

    /// Whether a string entry reads as the UTF-8 bytes `text`, without making a string of it.
    func string(_ entry: Entry, equals text: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(entry.start)
        let length = Int(entry.end) - start
        if entry.flagged {
            var resolved = self.text(entry)
            return resolved.withUTF8 { $0.elementsEqual(text) }
        }
        guard text.count == length else { return false }
        return length == 0 || memcmp(text.baseAddress!, bytes.baseAddress! + start, length) == 0
    }

    func bool(at index: Int) throws -> Bool {
        switch entries[index].kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(Bool.self, entries[index])
        }
    }

    /// An integer as `JSONDecoder` reads it: a plain literal exactly; a fraction through a `Double` that
    /// must be whole and below 2^53 (`34.0` is 34, `0.5` is refused).
    func integer<T: FixedWidthInteger>(at index: Int, as type: T.Type) throws -> T {
        let entry = entries[index]
        guard entry.kind == .number else { throw mismatch(type, entry) }
        let literal = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)])
        if !entry.flagged {
            // At most 18 digits always fit an Int64; longer ones are left to JSONDecoder.
            let negative = literal[0] == UInt8(ascii: "-")
            let digits = literal.count - (negative ? 1 : 0)
            guard digits <= 18 else { throw Unsure() }
            var value: Int64 = 0
            for byte in literal.dropFirst(negative ? 1 : 0) { value = value * 10 + Int64(byte - UInt8(ascii: "0")) }
            if negative { value = -value }
            guard let result = T(exactly: value) else { throw notRepresentable(type) }
            return result
        }
        if literal.contains(UInt8(ascii: "e")) || literal.contains(UInt8(ascii: "E")) { throw Unsure() }
        guard let double = Double(String(decoding: literal, as: UTF8.self)), abs(double) < 9_007_199_254_740_992
        else { throw Unsure() }
        guard let result = T(exactly: double) else { throw notRepresentable(type) }
        return result
    }

    /// A `Double` as `JSONDecoder` reads it (the same C `strtod`); exponents are left to it.
    func double(at index: Int) throws -> Double {
        let entry = entries[index]
        guard entry.kind == .number else { throw mismatch(Double.self, entry) }
        let literal = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)])
        // A short plain integer is exact as a Double; `-0` keeps its sign through `strtod`.
        if !entry.flagged && literal.count <= 15 && literal[0] != UInt8(ascii: "-") {
            return Double(try integer(at: index, as: Int64.self))
        }
        if literal.contains(UInt8(ascii: "e")) || literal.contains(UInt8(ascii: "E")) { throw Unsure() }
        guard let double = Double(String(decoding: literal, as: UTF8.self)), double.isFinite else { throw Unsure() }
        return double
    }

    // The errors' texts are fixed: they are only ever caught inside a decoding (`try?` in a lenient type);
    // one that escapes sends the document to `JSONDecoder`, whose own error is the one thrown.

    func mismatch(_ type: Any.Type, _ entry: Entry) -> DecodingError {
        let context = DecodingError.Context(codingPath: [], debugDescription: "Another type of value.")
        return entry.kind == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }

    func notRepresentable(_ type: Any.Type) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "The number does not fit."))
    }
}
