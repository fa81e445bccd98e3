import Foundation

/// One `exif-*` field as libvips renders it: `"value (libexif's value, Format, N components, M bytes)"`.
///
/// libvips puts its own rendering first (the raw text for ASCII, `"14/5"` for a rational) and libexif's
/// friendlier one in the parentheses (`"f/2.8"`, or `"© Jane (Photographer) - [None] (Editor)"` for a
/// copyright). Either may itself contain `" ("`, so the split uses the byte count libvips reports.
struct ExifField: Hashable {
    /// libvips' rendering: an ASCII field's text up to its first NUL, a rational as `"a/b"`.
    var value: String
    /// libexif's rendering, meant for people: `"1/100 sec."`, `"f/2.8"`, `"Flash did not fire"`.
    var pretty: String
    /// The EXIF type: `"ASCII"`, `"Short"`, `"Rational"`, `"Undefined"`...
    var format: String

    init(value: String, pretty: String, format: String) {
        self.value = value
        self.pretty = pretty
        self.format = format
    }

    /// Parses libvips' rendering; text without its suffix is taken whole as both value and pretty.
    init(_ text: String) {
        guard let parts = Self.split(text) else {
            self.init(value: text, pretty: text, format: "")
            return
        }
        self.init(value: parts.value, pretty: parts.pretty, format: parts.format)
    }

    private static func split(_ text: String) -> (value: String, pretty: String, format: String)? {
        guard text.hasSuffix(" bytes)"),
            let bytes = text.range(of: ", ", options: .backwards),
            let components = text[..<bytes.lowerBound].range(of: ", ", options: .backwards),
            let format = text[..<components.lowerBound].range(of: ", ", options: .backwards)
        else { return nil }
        let count = Int(text[components.upperBound..<bytes.lowerBound].prefix { $0.isNumber }) ?? -1
        let formatName = String(text[format.upperBound..<components.lowerBound])
        // "D (P": libvips' value D, a space and a parenthesis, libexif's P.
        let body = Array(text[..<format.lowerBound].utf8)
        let opens = body.indices.dropLast().filter { body[$0] == 0x20 && body[$0 + 1] == 0x28 }
        guard let first = opens.first else { return nil }
        var cut = first
        if formatName == "ASCII", opens.contains(count - 1) {
            // N components of ASCII are the text and its terminating NUL.
            cut = count - 1
        } else if body.count % 2 == 0, body[..<((body.count - 2) / 2)] == body[((body.count + 2) / 2)...],
            opens.contains((body.count - 2) / 2)
        {
            // "X (X": both renderings agree, whatever X contains.
            cut = (body.count - 2) / 2
        }
        let value = String(decoding: body[..<cut], as: UTF8.self)
        let pretty = String(decoding: body[(cut + 2)...], as: UTF8.self)
        return (value, pretty, formatName)
    }

    /// The value as a number: `"14/5"` → 2.8, `"200"` → 200; the first of several. `nil` for a zero
    /// denominator and for anything not finite or with a magnitude outside 10⁻¹² to 10¹² (`"1e-320"`, `"inf"`
    /// from a field of an unexpected type), so whatever is computed from it, `1 / x` and `Int(x)` among them,
    /// stays in range.
    var number: Double? {
        let first = value.split(separator: " ").first.map(String.init) ?? value
        let parts = first.split(separator: "/")
        let number: Double?
        if parts.count == 2, let numerator = Double(parts[0]), let denominator = Double(parts[1]) {
            number = denominator == 0 ? nil : numerator / denominator
        } else {
            number = Double(first)
        }
        guard let number, number.isFinite else { return nil }
        return number == 0 || (1e-12...1e12).contains(abs(number)) ? number : nil
    }
}
