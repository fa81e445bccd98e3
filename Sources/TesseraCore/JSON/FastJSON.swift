/// Writes the search answer's JSON by hand: the same bytes `JSONEncoder` gives with sorted keys and
/// unescaped slashes (a test compares them), several times faster. Search results are the API's largest
/// and most frequent answer, and their encoding sits on the critical path after the slowest source; a gallery
/// keeps each item as this JSON too.
public struct FastJSON {
    public private(set) var bytes: [UInt8] = []

    /// An item's JSON, as galleries keep it.
    public static func text(of item: Item) -> String {
        var json = FastJSON(capacity: 2048)
        json.item(item)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    public init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\b \f \n \r \t` or `\u00XX`. The runs
    /// between escapes are copied whole (most strings have none).
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var run = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                escape(byte)
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        case UInt8(ascii: "\n"): raw("\\n")
        case UInt8(ascii: "\r"): raw("\\r")
        case UInt8(ascii: "\t"): raw("\\t")
        default:
            raw("\\u00")
            bytes.append(Self.hex[Int(byte >> 4)])
            bytes.append(Self.hex[Int(byte & 0x0F)])
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// `[a,b,c]` with `element` writing each one.
    mutating func array<T>(_ values: [T], _ element: (inout FastJSON, T) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    // MARK: - The API's types, keys in sorted order, absent optionals left out (as `Codable` does)

    public mutating func section(_ section: SectionResult) {
        raw("{")
        if let error = section.error {
            raw(#""error":{"code":"#)
            string(error.code)
            raw(#","message":"#)
            string(error.message)
            if let retryAfter = error.retryAfter {
                raw(#","retryAfter":"#)
                int(retryAfter)
            }
            raw("},")
        }
        if let filters = section.filters {
            raw(#""filters":{"native":"#)
            array(filters.native) { $0.string($1.rawValue) }
            raw(#","tessera":"#)
            array(filters.tessera) { $0.string($1.rawValue) }
            raw(#","unsupported":"#)
            array(filters.unsupported) { $0.string($1.rawValue) }
            raw("},")
        }
        raw(#""hasMore":"#)
        raw(section.hasMore ? "true" : "false")
        raw(#","id":"#)
        string(section.id.rawValue)
        raw(#","items":"#)
        array(section.items) { $0.item($1) }
        raw(#","title":"#)
        string(section.title)
        raw(#","total":"#)
        if let total = section.total { int(total) } else { raw("null") }
        raw("}")
    }

    /// `/api/search`'s `groups` and the stream's `groups` event's list.
    public mutating func groups(_ groups: [SearchResponse.Group]) {
        array(groups) { json, group in
            json.raw(#"{"items":"#)
            json.array(group.items) { $0.string($1.description) }
            json.raw(#","representative":"#)
            json.string(group.representative.description)
            json.raw("}")
        }
    }

    public mutating func item(_ item: Item) {
        raw("{")
        if let creator = item.creator {
            raw(#""creator":"#)
            link(name: creator.name, url: creator.url)
            raw(",")
        }
        credit(item.credit)
        raw(",")
        if let full = item.full {
            raw(#""full":"#)
            image(full)
            raw(",")
        }
        raw(#""id":"#)
        string(item.id.description)
        raw(#","kind":"#)
        string(item.kind.rawValue)
        if let license = item.license {
            raw(#","license":"#)
            self.license(license)
        }
        if let listing = item.listing {
            raw(#","listing":"#)
            self.listing(listing)
        }
        if let media = item.mediaPreview {
            raw(#","mediaPreview":{"kind":"#)
            string(media.kind.rawValue)
            raw(#","url":"#)
            string(media.url)
            raw("}")
        }
        raw(#","metadata":"#)
        array(item.metadata) { json, entry in
            json.raw(#"{"label":"#)
            json.string(entry.label)
            json.raw(#","value":"#)
            json.string(entry.value)
            json.raw("}")
        }
        if let pageURL = item.pageURL {
            raw(#","pageURL":"#)
            string(pageURL)
        }
        if let preview = item.preview {
            raw(#","preview":"#)
            image(preview)
        }
        raw(#","sizes":"#)
        array(item.sizes) { json, size in
            json.raw("{")
            if let height = size.height {
                json.raw(#""height":"#)
                json.int(height)
                json.raw(",")
            }
            json.raw(#""name":"#)
            json.string(size.name)
            json.raw(#","url":"#)
            json.string(size.url)
            if let width = size.width {
                json.raw(#","width":"#)
                json.int(width)
            }
            json.raw("}")
        }
        raw(#","source":"#)
        string(item.source.rawValue)
        raw(#","tags":"#)
        array(item.tags) { $0.string($1) }
        if let thumbnail = item.thumbnail {
            raw(#","thumbnail":"#)
            image(thumbnail)
        }
        raw(#","title":"#)
        string(item.title)
        raw("}")
    }

    /// A store listing; `JSONEncoder` leaves absent optionals out, so the first key present opens it.
    private mutating func listing(_ listing: StoreListing) {
        var first = true
        func key(_ json: inout FastJSON, _ name: StaticString) {
            json.raw(first ? "{" : ",")
            first = false
            json.raw("\"")
            json.raw(name)
            json.raw("\":")
        }
        if let description = listing.description {
            key(&self, "description")
            string(description)
        }
        if let price = listing.price {
            key(&self, "price")
            string(price)
        }
        if let rating = listing.rating {
            key(&self, "rating")
            double(rating)
        }
        if let count = listing.ratingCount {
            key(&self, "ratingCount")
            int(count)
        }
        if let screenshots = listing.screenshots {
            key(&self, "screenshots")
            array(screenshots) { $0.image($1) }
        }
        raw(first ? "{}" : "}")
    }

    /// As `JSONEncoder` writes a finite `Double`: its `description` without a trailing `.0`.
    mutating func double(_ value: Double) {
        guard value.isFinite else { return raw("null") }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    public mutating func image(_ image: ImageRef) {
        raw("{")
        if let height = image.height {
            raw(#""height":"#)
            int(height)
            raw(",")
        }
        raw(#""url":"#)
        string(image.url)
        if let width = image.width {
            raw(#","width":"#)
            int(width)
        }
        raw("}")
    }

    /// Keys in sorted order: the facts, `id`, `name`, `requiresCredit`, `url`, `version`.
    private mutating func credit(_ credit: Credit) {
        raw(#""credit":{"badge":"#)
        string(credit.badge)
        if let deed = credit.deed {
            raw(#","deed":"#)
            string(deed)
        }
        raw(#","html":"#)
        string(credit.html)
        raw(#","label":"#)
        string(credit.label)
        raw(#","licenseName":"#)
        string(credit.licenseName)
        raw(#","reusable":"#)
        raw(credit.reusable ? "true" : "false")
        raw(#","text":"#)
        string(credit.text)
        raw("}")
    }

    private mutating func license(_ license: License) {
        raw(#"{"allowsCommercialUse":"#)
        raw(license.allowsCommercialUse ? "true" : "false")
        raw(#","allowsModification":"#)
        raw(license.allowsModification ? "true" : "false")
        raw(#","id":"#)
        string(license.id.rawValue)
        raw(#","name":"#)
        string(license.name)
        raw(#","requiresCredit":"#)
        raw(license.requiresCredit ? "true" : "false")
        if let url = license.url {
            raw(#","url":"#)
            string(url)
        }
        if let version = license.version {
            raw(#","version":"#)
            string(version)
        }
        raw("}")
    }

    private mutating func link(name: String, url: String?) {
        raw(#"{"name":"#)
        string(name)
        if let url {
            raw(#","url":"#)
            string(url)
        }
        raw("}")
    }
}
