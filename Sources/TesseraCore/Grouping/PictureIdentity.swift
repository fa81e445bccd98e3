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
        guard let parts = URLComponents(string: address), let host = parts.host?.lowercased() else { return nil }
        let path = parts.percentEncodedPath.split(separator: "/").map(String.init)
        if host == "flickr.com" || host.hasSuffix(".flickr.com") {
            // /photos/{owner}/{id}[/in/...]: the owner may be an alias or an NSID, the id is the photo's.
            guard path.count >= 3, path[0] == "photos", !path[2].isEmpty, path[2].allSatisfy(\.isASCIIDigit)
            else { return nil }
            return "flickr:\(path[2])"
        }
        guard host == "commons.wikimedia.org" || host == "commons.m.wikimedia.org" else { return nil }
        if let curid = parts.queryItems?.first(where: { $0.name == "curid" })?.value, !curid.isEmpty,
            curid.allSatisfy(\.isASCIIDigit)
        {
            return "wikimedia:\(curid)"
        }
        let title: String? =
            path.count == 2 && path[0] == "wiki"
            ? path[1].removingPercentEncoding
            : parts.queryItems?.first(where: { $0.name == "title" })?.value
        guard let title, let name = fileName(title) else { return nil }
        return "commons-file:\(name)"
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

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
