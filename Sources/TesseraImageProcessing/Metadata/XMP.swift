import Foundation
import TesseraCore

/// Properties of an XMP packet (libvips' `xmp-data`), read by a small tolerant scanner.
///
/// XMP is RDF/XML, but packets in the wild are often not well-formed (truncated padding, stray bytes), and
/// an XML parser gives up on the whole packet at the first fault. The scanner looks for the few properties
/// Tessera shows, in the two shapes writers use: an element (`<dc:title><rdf:Alt><rdf:li xml:lang=...>`,
/// or plain text) or an attribute of `rdf:Description` (`photoshop:City="..."`). It assumes the usual
/// prefixes (`dc`, `xmp`, `photoshop`, `exif`...), which every writer Tessera has met uses. Values are
/// untrusted text: references decoded, markup dropped, whitespace collapsed.
struct XMP: Hashable {
    let text: String

    /// The most of a packet read: a JPEG's packet fits in 64 KB, while a PNG's or WebP's may be as large as
    /// the file; the properties shown come first, and every lookup scans the text.
    static let maxBytes = 1 << 20
    /// The most of one value cleaned: ample for `MetadataText.maxLength` characters with their markup.
    static let maxValueCharacters = 16 * MetadataText.maxLength

    init(_ blob: [UInt8]) {
        let blob = blob.prefix(Self.maxBytes)
        // Packets end with kilobytes of padding and sometimes a NUL.
        let end = blob.lastIndex { $0 != 0 && $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 } ?? -1
        text = String(decoding: blob[..<(end + 1)], as: UTF8.self)
    }

    /// Every value of `property`: the items of its `rdf:Bag`, `rdf:Seq` or `rdf:Alt` (the `x-default`
    /// language first), or its one plain value.
    func values(_ property: String) -> [String] {
        if let element = element(property) {
            var items: [(text: String, isDefault: Bool)] = []
            var rest = element[...]
            while let item = Self.nextElement("rdf:li", in: rest) {
                if let content = item.content, let text = Self.clean(content) {
                    items.append((text, item.attributes.contains("x-default")))
                }
                rest = rest[item.end...]
            }
            if items.isEmpty, !element.contains("<"), let text = Self.clean(element[...]) { return [text] }
            return items.filter(\.isDefault).map(\.text) + items.filter { !$0.isDefault }.map(\.text)
        }
        if let value = attribute(property), let text = Self.clean(value) { return [text] }
        return []
    }

    /// The first value of `property` (the `x-default` one of a language alternative).
    func value(_ property: String) -> String? { values(property).first }

    // MARK: - Scanning

    /// The content of the first `<property ...>...</property>` that has content.
    private func element(_ property: String) -> Substring? {
        var rest = text[...]
        while let found = Self.nextElement(property, in: rest) {
            if let content = found.content { return content }
            rest = rest[found.end...]
        }
        return nil
    }

    /// The value of `property="..."` (or single-quoted) in some tag.
    private func attribute(_ property: String) -> Substring? {
        var rest = text[...]
        while let name = rest.range(of: property + "=") {
            rest = rest[name.upperBound...]
            guard let before = text[..<name.lowerBound].last, before.isWhitespace,
                let quote = rest.first, quote == "\"" || quote == "'"
            else { continue }
            let valueStart = rest.index(after: rest.startIndex)
            guard let close = rest[valueStart...].firstIndex(of: quote) else { return nil }
            return rest[valueStart..<close]
        }
        return nil
    }

    private struct Element {
        /// The start tag's attributes, raw.
        var attributes: Substring
        /// What is between the start and end tags; `nil` for an empty element `<x/>` or a missing end tag.
        var content: Substring?
        /// Where scanning continues.
        var end: Substring.Index
    }

    /// The next `<name ...>content</name>` in `text`.
    private static func nextElement(_ name: String, in text: Substring) -> Element? {
        var rest = text
        while let open = rest.range(of: "<" + name) {
            rest = rest[open.upperBound...]
            guard let next = rest.first, next == ">" || next == "/" || next.isWhitespace else { continue }
            guard let close = rest.firstIndex(of: ">") else { return nil }
            let attributes = rest[..<close]
            let afterTag = rest.index(after: close)
            if attributes.hasSuffix("/") { return Element(attributes: attributes, content: nil, end: afterTag) }
            guard let endTag = rest[afterTag...].range(of: "</" + name + ">") else {
                // No end tag anywhere after this one: no later element of the name has content either, and
                // looking again from each later start tag would take time quadratic in the packet.
                return Element(attributes: attributes, content: nil, end: rest.endIndex)
            }
            return Element(attributes: attributes, content: rest[afterTag..<endTag.lowerBound], end: endTag.upperBound)
        }
        return nil
    }

    /// Plain text of an XML text node: CDATA unwrapped, references decoded, tags dropped, at most 4,000
    /// characters; `nil` when blank.
    static func clean(_ raw: Substring) -> String? {
        var xml = String(raw.prefix(maxValueCharacters))
        while let open = xml.range(of: "<![CDATA["), let close = xml[open.upperBound...].range(of: "]]>") {
            let inner = xml[open.upperBound..<close.lowerBound]
                .replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            xml.replaceSubrange(open.lowerBound..<close.upperBound, with: inner)
        }
        return MetadataText.clean(PlainText.fromHTML(xml))
    }
}

/// Text from a file's metadata, made safe to show: control characters gone, whitespace collapsed, length
/// capped.
enum MetadataText {
    static let maxLength = 4_000

    static func clean(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let visible = String(
            String.UnicodeScalarView(
                raw.unicodeScalars.map { scalar in
                    scalar.properties.generalCategory == .control ? " " : scalar
                }))
        let text = PlainText.collapsingWhitespace(visible)
        guard !text.isEmpty else { return nil }
        return text.count > maxLength ? String(text.prefix(maxLength)) : text
    }
}
