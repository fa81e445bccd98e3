/// Turns the HTML some services put in titles and descriptions into plain text.
///
/// Tags are dropped (block-level ones become spaces), character references are decoded, and runs of
/// whitespace collapse to one space. The result is text for `textContent`, never markup.
public enum PlainText {
    public static func fromHTML(_ html: String) -> String {
        if isPlain(html) { return html }
        var output = ""
        output.reserveCapacity(html.utf8.count)
        var index = html.startIndex
        // The first `>` at or after the last `<` looked from: kept, so text of many `<` and few `>` (untrusted
        // metadata, a service's answer) is read in linear time, not once more from every `<`.
        var nextClose: String.Index?
        var lookedFrom: String.Index?
        while index < html.endIndex {
            let character = html[index]
            if character == "<", lookedFrom == nil || nextClose.map({ $0 < index }) == true {
                nextClose = html[index...].firstIndex(of: ">")
                lookedFrom = index
            }
            if character == "<", let close = nextClose {
                let inner = html[html.index(after: index)..<close]
                if isTag(inner) {
                    output.append(" ")
                    index = html.index(after: close)
                    continue
                }
            }
            if character == "&", let (decoded, next) = decodeReference(in: html, at: index) {
                output.append(decoded)
                index = next
                continue
            }
            output.append(character)
            index = html.index(after: index)
        }
        return collapsingWhitespace(output)
    }

    /// Collapses every run of whitespace (including newlines) into one space and trims the ends.
    public static func collapsingWhitespace(_ text: String) -> String {
        if isPlain(text) { return text }
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// True when `text` is already plain text: no `<` or `&`, and no whitespace but single inner spaces.
    ///
    /// Most titles and tags are, and a scan of their bytes is far cheaper than walking their characters.
    /// Lead bytes of every non-ASCII Unicode whitespace (U+0085, U+00A0: 0xC2; U+1680: 0xE1;
    /// U+2000–U+205F: 0xE2; U+3000: 0xE3) send the text the slow, exact way.
    static func isPlain(_ text: String) -> Bool {
        var afterSpace = true
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: "&"), 0x09...0x0D, 0xC2, 0xE1, 0xE2, 0xE3:
                return false
            case UInt8(ascii: " "):
                if afterSpace { return false }
                afterSpace = true
            default:
                afterSpace = false
            }
        }
        return !afterSpace
    }

    /// `<b>`, `</p>`, `<br/>`, `<!-- -->`, `<a href=...>`: a letter, `/` or `!` right after `<`.
    private static func isTag(_ inner: Substring) -> Bool {
        guard let first = inner.first else { return false }
        return first.isLetter || first == "/" || first == "!"
    }

    private static func decodeReference(in text: String, at start: String.Index) -> (Character, String.Index)? {
        let afterAmp = text.index(after: start)
        guard let semicolon = text[afterAmp...].prefix(12).firstIndex(of: ";") else { return nil }
        let body = text[afterAmp..<semicolon]
        let next = text.index(after: semicolon)
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let value, let scalar = Unicode.Scalar(value) else { return nil }
            return (Character(scalar), next)
        }
        guard let named = namedEntities[String(body)] else { return nil }
        return (named, next)
    }

    private static let namedEntities: [String: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "laquo": "«", "raquo": "»", "copy": "©", "reg": "®", "trade": "™", "deg": "°", "middot": "·",
        "eacute": "é", "egrave": "è", "aacute": "á", "agrave": "à", "oacute": "ó", "uacute": "ú", "iacute": "í",
        "ntilde": "ñ", "ccedil": "ç", "uuml": "ü", "ouml": "ö", "auml": "ä", "szlig": "ß", "times": "×",
    ]
}

extension StringProtocol {
    /// The text without leading and trailing whitespace and newlines, trimmed code point by code point so that
    /// what is left starts and ends where the contract's `\S` (docs/openapi.yaml) says it does.
    public var trimmingWhitespace: String {
        let text = String(self)
        // Nearly every value starts and ends with a visible ASCII character: nothing to trim.
        if let first = text.utf8.first, let last = text.utf8.last, (0x21...0x7E).contains(first),
            (0x21...0x7E).contains(last)
        {
            return text
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isTrimmedSpace }),
            let last = scalars.lastIndex(where: { !$0.isTrimmedSpace })
        else { return "" }
        return String(scalars[first...last])
    }
}

extension Unicode.Scalar {
    /// Unicode's White_Space, plus the four separators U+001C–U+001F that Python's and so schemathesis's `\s`
    /// also counts: trimming at least everything a schema regex calls space keeps the server no looser than it.
    fileprivate var isTrimmedSpace: Bool {
        // ASCII without the Unicode property lookup, which showed in every search page's mapping.
        if value < 0x80 { return (0x09...0x0D).contains(value) || value == 0x20 || (0x1C...0x1F).contains(value) }
        return properties.isWhitespace
    }
}

/// Normalises tags from every service the same way: plain text, lower-cased, trimmed, no blanks, no repeats.
public enum Tags {
    public static func normalize<S: Sequence>(_ raw: S) -> [String] where S.Element: StringProtocol {
        var seen = Set<String>()
        var tags: [String] = []
        for tag in raw {
            let text = PlainText.fromHTML(String(tag)).lowercased()
            guard !text.isEmpty, seen.insert(text).inserted else { continue }
            tags.append(text)
        }
        return tags
    }

    /// Pixabay: `"apples, fruits, red"`.
    public static func commaSeparated(_ list: String) -> [String] {
        normalize(list.split(separator: ","))
    }

    /// Flickr: `"10faves balloon"`.
    public static func spaceSeparated(_ list: String) -> [String] {
        normalize(list.split(whereSeparator: { $0.isWhitespace }))
    }
}
