import Foundation

/// What says two items are the same picture before looking at them: the photo's id at the service that
/// holds it. Openverse re-publishes Flickr and Wikimedia Commons photos and names each by its landing page
/// (`foreign_landing_url`, the item's `pageURL`): `https://www.flickr.com/photos/{owner}/{photo id}` and
/// `https://commons.wikimedia.org/w/index.php?curid={page id}` (or `/wiki/File:{name}`), the same ids
/// those services' own items carry.
public enum PictureIdentity {
    /// The keys naming the photo an item is; two items sharing a key are the same picture. Empty for items
    /// that are not images or name no photo Tessera can recognise.
    public static func keys(of item: Item) -> [String] {
        guard item.kind == .image else { return [] }
        var keys: [String] = []
        switch item.source {
        case .flickr: keys.append("flickr:\(item.id.nativeID)")
        case .wikimedia: keys.append("wikimedia:\(item.id.nativeID)")
        default: break
        }
        if let page = item.pageURL, let key = landingPageKey(page), !keys.contains(key) { keys.append(key) }
        return keys
    }

    /// The photo a landing page names: `flickr:{id}`, `wikimedia:{page id}` or `commons-file:{name}`.
    static func landingPageKey(_ address: String) -> String? {
        if let plain = PlainAddress(address) {
            return landingPageKey(host: plain.host, path: plain.path, query: { plain.query($0) })
        }
        guard let parts = URLComponents(string: address), let host = parts.host?.lowercased() else { return nil }
        return landingPageKey(
            host: host, path: parts.percentEncodedPath.split(separator: "/").map(String.init),
            query: { name in parts.queryItems?.first(where: { $0.name == name })?.value })
    }

    /// `landingPageKey` on an address taken apart: its host in lower case, its path's segments as written,
    /// and its query parameters' values, decoded.
    private static func landingPageKey(host: String, path: [String], query: (String) -> String?) -> String? {
        if host == "flickr.com" || host.hasSuffix(".flickr.com") {
            // /photos/{owner}/{id}[/in/...]: the owner may be an alias or an NSID, the id is the photo's.
            guard path.count >= 3, path[0] == "photos", !path[2].isEmpty, isDigits(path[2])
            else { return nil }
            return "flickr:\(path[2])"
        }
        guard host == "commons.wikimedia.org" || host == "commons.m.wikimedia.org" else { return nil }
        if let curid = query("curid"), !curid.isEmpty, isDigits(curid) { return "wikimedia:\(curid)" }
        let title: String? =
            path.count == 2 && path[0] == "wiki"
            ? path[1].removingPercentEncoding
            : query("title")
        guard let title, let name = fileName(title) else { return nil }
        return "commons-file:\(name)"
    }

    private static func isDigits(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// `File:Some_name.jpg` → `Some name.jpg`, with MediaWiki's rules for titles: underscores are spaces,
    /// the first letter is upper case, the namespace is case-insensitive. `nil` outside the File namespace.
    static func fileName(_ title: String) -> String? {
        let text = title.replacingOccurrences(of: "_", with: " ")
        guard let colon = text.firstIndex(of: ":"), ["file", "image"].contains(text[..<colon].lowercased())
        else { return nil }
        let name = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard let first = name.first else { return nil }
        return first.uppercased() + name.dropFirst()
    }
}

/// An `http(s)://host/path?query` address of plain characters only (letters, digits and `-._~/?=&+`; no
/// percent escapes, user, port or fragment), taken apart by hand: an Openverse page names every item's
/// landing page, and `URLComponents` took ~5 µs each on the answer's path. Anything else is `nil`, for
/// `URLComponents` to read.
private struct PlainAddress {
    let host: String
    let path: [String]
    /// The query's `name=value` pairs (a bare `name` has no value), as written.
    private let pairs: [(name: ArraySlice<UInt8>, value: ArraySlice<UInt8>?)]

    /// Read on the bytes throughout: Character by Character (grapheme breaking) cost as much as the parse.
    init?(_ address: String) {
        let bytes = Array(address.utf8)
        let prefix: Int
        if bytes.starts(with: "https://".utf8) {
            prefix = 8
        } else if bytes.starts(with: "http://".utf8) {
            prefix = 7
        } else {
            return nil
        }
        let rest = bytes[prefix...]
        guard rest.allSatisfy(Self.isPlain) else { return nil }
        let hostEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        guard hostEnd > rest.startIndex else { return nil }
        host = String(decoding: rest[..<hostEnd].map { $0 | (Self.isUpper($0) ? 0x20 : 0) }, as: UTF8.self)
        let queryStart = rest[hostEnd...].firstIndex(of: UInt8(ascii: "?"))
        path = rest[hostEnd..<(queryStart ?? rest.endIndex)].split(separator: UInt8(ascii: "/")).map {
            String(decoding: $0, as: UTF8.self)
        }
        let query = queryStart.map { rest[($0 + 1)...] } ?? []
        pairs = query.split(separator: UInt8(ascii: "&")).map { pair in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return (pair, nil) }
            return (pair[..<equals], pair[(equals + 1)...])
        }
    }

    /// The first value of parameter `name` ("" for `name=`, `nil` for a bare `name` or none).
    func query(_ name: String) -> String? {
        guard let pair = pairs.first(where: { $0.name.elementsEqual(name.utf8) }) else { return nil }
        return pair.value.map { String(decoding: $0, as: UTF8.self) }
    }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }

    /// Letters, digits and `-._~/?=&+`.
    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "="), UInt8(ascii: "&"),
            UInt8(ascii: "+"):
            true
        default:
            false
        }
    }
}
