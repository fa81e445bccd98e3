import Foundation

// The marked-up forms of a credit. Every value from a source is escaped for its format, and only http(s)
// addresses become links: a `javascript:` URL from a source stays text.
extension Attribution {
    // MARK: - HTML

    /// One `<p class="attribution">` with links to the item's page, its author and its licence.
    public var html: String { html(licenseClause) }

    /// `html` with the licence's clause already read.
    func html(_ clause: LicenseClause) -> String {
        let link = { (url: String?, text: String) in
            guard let url, Self.isWebURL(url) else { return Markup.html(text) }
            return "<a href=\"\(Markup.attribute(url))\" rel=\"noopener noreferrer\">\(Markup.html(text))</a>"
        }
        var html = "<p class=\"attribution\">“\(link(pageURL, displayTitle))”"
        if let creatorName { html += " by \(link(creator?.url, creatorName))" }
        switch clause {
        case .unknown: html += Self.unknownSentence
        case .reserved(let detail): html += Self.reservedSentence(detail, escape: Markup.html)
        case .named(let before, let name, let after, let deed, _):
            html += Markup.html(before) + (name.map { link(deed, $0) } ?? "") + Markup.html(after)
        }
        if let source = sourceLabel { html += " Source: \(link(pageURL, source))" }
        return html + "</p>"
    }

    // MARK: - Markdown

    /// `“[Title](page)” by [Author](url) is licensed under [CC BY 2.0](url). Source: [Flickr](page)`.
    public var markdown: String {
        let link = { (url: String?, text: String) in
            guard let url, Self.isWebURL(url) else { return Markup.markdown(text) }
            return "[\(Markup.markdown(text))](\(Markup.markdownURL(url)))"
        }
        var markdown = "“\(link(pageURL, displayTitle))”"
        if let creatorName { markdown += " by \(link(creator?.url, creatorName))" }
        switch licenseClause {
        case .unknown: markdown += Self.unknownSentence
        case .reserved(let detail): markdown += Self.reservedSentence(detail, escape: Markup.markdown)
        case .named(let before, let name, let after, let deed, _):
            markdown += Markup.markdown(before) + (name.map { link(deed, $0) } ?? "") + Markup.markdown(after)
        }
        if let source = sourceLabel { markdown += " Source: \(link(pageURL, source))" }
        return markdown
    }

    // MARK: - XML

    /// Openverse's shape: the title, the creator, the licence's name and link, the source's link.
    public var xml: String {
        let license = effectiveLicense
        let naming = license.naming
        var lines = ["<attribution>", "  <title>\(Markup.html(displayTitle))</title>"]
        if let creatorName {
            let url = creator?.url.flatMap { Self.isWebURL($0) ? " url=\"\(Markup.attribute($0))\"" : nil } ?? ""
            lines.append("  <creator\(url)>\(Markup.html(creatorName))</creator>")
        }
        let licenseURL = naming.deed.flatMap { Self.isWebURL($0) ? " url=\"\(Markup.attribute($0))\"" : nil } ?? ""
        lines.append(
            "  <license id=\"\(Markup.attribute(license.id.rawValue))\"\(licenseURL)>\(Markup.html(naming.name))</license>"
        )
        if let source = sourceLabel {
            let url = pageURL.flatMap { Self.isWebURL($0) ? " url=\"\(Markup.attribute($0))\"" : nil } ?? ""
            lines.append("  <source\(url)>\(Markup.html(source))</source>")
        }
        lines.append("</attribution>")
        return lines.joined(separator: "\n")
    }

    /// The source as a link's words: the service's name, else the page's address.
    var sourceLabel: String? {
        if let sourceName { return sourceName }
        return pageURL.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// An `http(s)` address with a host and nothing that would end an attribute or a link (spaces, quotes,
    /// angle brackets, control characters). Read byte by byte: every item of every answer asks it a few
    /// times, and Foundation's `URL(string:)` is slow on Linux.
    public static func isWebURL(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        let lower = { (byte: UInt8) in byte | 0x20 }
        let http = Array("http".utf8)
        guard bytes.count > 8, zip(bytes.prefix(4), http).allSatisfy({ lower($0) == $1 }) else { return false }
        bytes = bytes.dropFirst(4)
        if lower(bytes.first!) == UInt8(ascii: "s") { bytes = bytes.dropFirst() }
        guard bytes.starts(with: "://".utf8) else { return false }
        bytes = bytes.dropFirst(3)
        guard let first = bytes.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "?"),
            first != UInt8(ascii: "#"), first != UInt8(ascii: ":"), first != UInt8(ascii: "@")
        else { return false }
        return !bytes.contains {
            $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
        }
    }
}

/// Escaping for the formats credits are written in.
public enum Markup {
    /// Text inside an HTML or XML element.
    public static func html(_ text: String) -> String {
        // Byte by byte: the five characters are ASCII, and most text needs no escape at all.
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            switch byte {
            case 0x26: out += "&amp;".utf8
            case 0x3C: out += "&lt;".utf8
            case 0x3E: out += "&gt;".utf8
            case 0x22: out += "&quot;".utf8
            case 0x27: out += "&#39;".utf8
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A double-quoted attribute value (the same escapes: quotes included).
    public static func attribute(_ text: String) -> String { html(text) }

    /// Markdown text: the marks that start inline markup are backslash-escaped (a credit never starts a line
    /// with a value, so block markers such as `#` or `1.` need nothing), and line breaks become spaces so a
    /// credit stays one paragraph.
    public static func markdown(_ text: String) -> String {
        let special: Set<Character> = ["\\", "`", "*", "_", "[", "]", "|", "<", ">", "~", "&"]
        var out = ""
        for character in text {
            if character.isNewline {
                out.append(" ")
            } else {
                if special.contains(character) { out.append("\\") }
                out.append(character)
            }
        }
        return out
    }

    /// A link's destination: characters that would end it (spaces, parentheses, angle brackets) are
    /// percent-encoded.
    public static func markdownURL(_ url: String) -> String {
        var out = ""
        for scalar in url.unicodeScalars {
            switch scalar {
            case " ": out += "%20"
            case "(": out += "%28"
            case ")": out += "%29"
            case "<": out += "%3C"
            case ">": out += "%3E"
            case "\n", "\r", "\t": break
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
