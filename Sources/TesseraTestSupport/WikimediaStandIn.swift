import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// The Commons Action API (`/wikimedia/w/api.php`): `generator=search` with `prop=imageinfo`, and
/// page lookups by `pageids` or `titles`, in formatversion 1 or 2.
///
/// Errors come as MediaWiki sends them, HTTP 200 with `{"error": {"code", "info"}}`. Records vary as
/// real files do: every fifth (`number % 5 == 0`) has no `ObjectName` and an `Artist` without a link,
/// every tenth has `extmetadata: []`, and every fourth is in the public domain with no licence URL.
public struct WikimediaStandIn: StandInProvider {
    public let state = StandInState()
    private let settings = Settings()

    public init() {}

    /// An API error to answer every request with (HTTP 200), for codes no `StandInBehavior` stands
    /// for (`ratelimited`, `maxlag`, `readonly`); `nil` answers normally.
    public var apiError: (code: String, info: String)? {
        get { settings.values.withLock { $0.apiError } }
        nonmutating set { settings.values.withLock { $0.apiError = newValue } }
    }

    /// Answer in formatversion 1 whatever the request asks, as MediaWiki before 1.25 (and mirrors
    /// running it) do: the parameter did not exist yet.
    public var ignoresFormatVersion: Bool {
        get { settings.values.withLock { $0.ignoresFormatVersion } }
        nonmutating set { settings.values.withLock { $0.ignoresFormatVersion = newValue } }
    }

    public func environment(origin: String) -> [String: String] {
        ["TESSERA_WIKIMEDIA_URL": "\(origin)/wikimedia/w/api.php"]
    }

    public func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/wikimedia/w/api.php") { request, _ in await self.api(request) }
    }

    // MARK: - Routes

    private func api(_ request: Request) async -> Response {
        let query = request.queryValues
        let term = query["gsrsearch"].map(Self.searchTerm) ?? query["pageids"] ?? query["titles"]
        return await StandInResponse.answer(request, state: state, term: term) { behavior in
            switch behavior {
            case .invalidKey:
                // No keys here; the closest MediaWiki answer is a refused token.
                Self.error("badtoken", "Invalid CSRF token.")
            case .rateLimited(let retryAfter):
                StandInResponse.raw(
                    "Too many requests. Please see https://meta.wikimedia.org/wiki/User-Agent_policy",
                    status: .tooManyRequests, contentType: "text/html; charset=utf-8",
                    headers: StandInResponse.retryHeaders(retryAfter, state: state))
            default:
                StandInResponse.raw(
                    StandInResponse.serverErrorPage, status: .internalServerError, contentType: "text/html")
            }
        } normal: {
            normalAnswer(query, origin: request.standInOrigin)
        }
    }

    private func normalAnswer(_ query: [String: String], origin: String) -> Response {
        if let (code, info) = apiError { return Self.error(code, info) }
        guard query["action"] == "query" else {
            return Self.error("badvalue", "Unrecognized value for parameter \"action\": \(query["action"] ?? "").")
        }
        guard query["format"] == "json" else {
            let format = query["format"] ?? "jsonfm"
            return Self.error("badvalue", "Unrecognized value for parameter \"format\": \(format).")
        }
        let render = Rendering(query: query, origin: origin, formatVersion1: ignoresFormatVersion)
        if query["generator"] == "search" { return search(query, render) }
        if let ids = query["pageids"] { return lookup(ids.split(separator: "|").map(String.init), byID: true, render) }
        if let titles = query["titles"] {
            return lookup(titles.split(separator: "|").map(String.init), byID: false, render)
        }
        return render.body(pages: [], continueOffset: nil)
    }

    /// `gsrsearch` without its `filetype:` filters: what the corpus is keyed by.
    static func searchTerm(_ search: String) -> String {
        search.split(separator: " ").filter { !$0.lowercased().hasPrefix("filetype:") }.joined(separator: " ")
    }

    // MARK: - Search

    private func search(_ query: [String: String], _ render: Rendering) -> Response {
        guard let search = query["gsrsearch"], !search.trimmingCharacters(in: .whitespaces).isEmpty else {
            return Self.error("missingparam", "The \"gsrsearch\" parameter must be set.")
        }
        let rawLimit = query["gsrlimit"] ?? "10"
        guard let limit = rawLimit == "max" ? 500 : Int(rawLimit), (1...500).contains(limit) else {
            return Self.error(
                "outofrange", "Invalid value \"\(rawLimit)\" for limit parameter \"gsrlimit\": must be 1–500.")
        }
        guard let offset = Int(query["gsroffset"] ?? "0"), offset >= 0 else {
            let raw = query["gsroffset"] ?? ""
            return Self.error("badinteger", "Invalid value \"\(raw)\" for integer parameter \"gsroffset\".")
        }
        // Only files have image info; another namespace finds none of this corpus.
        let records = query["gsrnamespace"] == "6" ? state.corpus.records(for: Self.searchTerm(search)) : []
        // CirrusSearch's window: nothing at or past 10,000.
        let end = min(records.count, offset + limit, 10_000)
        guard offset < end else { return render.body(pages: [], continueOffset: nil) }
        let pages = records[offset..<end].enumerated().map { position, record in
            render.page(record, index: offset + position + 1)
        }
        return render.body(pages: pages, continueOffset: end < min(records.count, 10_000) ? end : nil)
    }

    // MARK: - Lookup

    private func lookup(_ keys: [String], byID: Bool, _ render: Rendering) -> Response {
        let pages: [[String: Any]] = keys.map { key in
            if let record = handedOut(matching: key, byID: byID) { return render.page(record, index: nil) }
            if byID { return ["pageid": Int(key) ?? 0, "missing": render.flag] }
            return ["ns": 6, "title": key, "missing": render.flag, "imagerepository": ""]
        }
        return render.body(pages: pages, continueOffset: nil)
    }

    /// A record of any search this stand-in has answered, by page id or by `File:` title.
    private func handedOut(matching key: String, byID: Bool) -> FakeRecord? {
        let wanted = byID ? key : Self.normalizedTitle(key)
        for request in state.requests {
            guard let search = request["gsrsearch"] else { continue }
            let match = state.corpus.records(for: Self.searchTerm(search)).first { record in
                byID ? String(record.number) == wanted : Self.pageTitle(record) == wanted
            }
            if let match { return match }
        }
        return nil
    }

    /// `file:yellow_flowers 1.jpg` → `File:Yellow flowers 1.jpg`, as MediaWiki normalises titles.
    static func normalizedTitle(_ title: String) -> String {
        var name = title.replacingOccurrences(of: "_", with: " ")
        if name.lowercased().hasPrefix("file:") { name = String(name.dropFirst(5)) }
        return "File:" + name.prefix(1).uppercased() + name.dropFirst()
    }

    static func pageTitle(_ record: FakeRecord) -> String { normalizedTitle(record.title + ".jpg") }

    static func error(_ code: String, _ info: String) -> Response {
        StandInResponse.json([
            "error": ["code": code, "info": info, "*": "See /w/api.php for API usage."],
            "servedby": "mw-standin",
        ])
    }
}

/// Renders pages the way the request asked: formatversion, `prop`, `iiprop` and `iiurlwidth`.
private struct Rendering {
    let formatVersion2: Bool
    let imageInfo: Bool
    let properties: Set<String>
    let thumbWidth: Int?
    let origin: String

    init(query: [String: String], origin: String, formatVersion1: Bool) {
        formatVersion2 = !formatVersion1 && ["2", "latest"].contains(query["formatversion"] ?? "1")
        imageInfo = (query["prop"] ?? "").split(separator: "|").contains("imageinfo")
        properties = Set((query["iiprop"] ?? "timestamp|user").split(separator: "|").map(String.init))
        thumbWidth = query["iiurlwidth"].flatMap { Int($0) }
        self.origin = origin
    }

    /// `true` in formatversion 2; present-and-empty in formatversion 1.
    var flag: Any { formatVersion2 ? true : "" }

    /// The whole answer. formatversion 2 lists `pages` by page id, as MediaWiki does; formatversion 1
    /// keys them by page id, here in reverse search order. Only `index` gives the ranking.
    func body(pages: [[String: Any]], continueOffset: Int?) -> Response {
        var body = "{\"batchcomplete\":" + (formatVersion2 ? "true" : "\"\"")
        if let continueOffset {
            body += ",\"continue\":{\"gsroffset\":\(continueOffset),\"continue\":\"gsroffset||\"}"
        }
        if !pages.isEmpty {
            let list: String
            if formatVersion2 {
                list = Self.json(pages.sorted { ($0["pageid"] as? Int ?? 0) < ($1["pageid"] as? Int ?? 0) })
            } else {
                // Titles that do not exist have no page id: MediaWiki keys them -1, -2, ...
                var entries: [String] = []
                var missing = 0
                for page in pages.reversed() {
                    var key = (page["pageid"] as? Int).map(String.init)
                    if key == nil {
                        missing -= 1
                        key = String(missing)
                    }
                    entries.append("\"\(key!)\":" + Self.json(page))
                }
                list = "{" + entries.joined(separator: ",") + "}"
            }
            body += ",\"query\":{\"pages\":\(list)}"
        }
        return StandInResponse.raw(body + "}", status: .ok, contentType: "application/json; charset=utf-8")
    }

    func page(_ record: FakeRecord, index: Int?) -> [String: Any] {
        var page: [String: Any] = [
            "pageid": record.number, "ns": 6, "title": WikimediaStandIn.pageTitle(record), "imagerepository": "local",
        ]
        if let index { page["index"] = index }
        if imageInfo { page["imageinfo"] = [info(record)] }
        return page
    }

    private func info(_ record: FakeRecord) -> [String: Any] {
        let file = String(WikimediaStandIn.pageTitle(record).dropFirst(5)).replacingOccurrences(of: " ", with: "_")
        let encoded = file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file
        let hash = String(FakeRecord.stableHash(file), radix: 16)
        let directory = "\(hash.prefix(1))/\(hash.prefix(2))"
        var info: [String: Any] = [:]
        if properties.contains("size") {
            info["size"] = record.width * record.height / 3
            info["width"] = record.width
            info["height"] = record.height
        }
        if properties.contains("url") {
            let url = "\(origin)/wikimedia/upload/\(directory)/\(encoded)"
            info["url"] = url
            info["descriptionurl"] = "https://commons.wikimedia.org/wiki/File:\(encoded)"
            info["descriptionshorturl"] = "https://commons.wikimedia.org/w/index.php?curid=\(record.number)"
            // MediaWiki never scales a bitmap up: a wide enough request gets the original.
            if let width = thumbWidth, width > 0 {
                let scaled = width < record.width
                let thumb = "\(origin)/wikimedia/upload/thumb/\(directory)/\(encoded)/\(width)px-\(encoded)"
                info["thumburl"] = scaled ? thumb : url
                info["thumbwidth"] = scaled ? width : record.width
                let height = Int((Double(record.height) * Double(width) / Double(record.width)).rounded())
                info["thumbheight"] = scaled ? height : record.height
            }
        }
        if properties.contains("mime") { info["mime"] = "image/jpeg" }
        if properties.contains("extmetadata") { info["extmetadata"] = extmetadata(record) }
        return info
    }

    private func extmetadata(_ record: FakeRecord) -> Any {
        let number = record.number
        if number % 10 == 0 { return [Any]() }
        // Commons marks most entries `"hidden": ""`, in both format versions.
        func entry(_ value: Any, _ source: String, hidden: Bool = true) -> [String: Any] {
            hidden ? ["value": value, "source": source, "hidden": ""] : ["value": value, "source": source]
        }
        let user = record.creator.replacingOccurrences(of: " ", with: "_")
        let publicDomain = number % 4 == 0
        var meta: [String: Any] = [
            "DateTime": entry("2021-06-0\(number % 9 + 1) 10:00:00", "mediawiki-metadata"),
            "CommonsMetadataExtension": entry(1.2, "extension"),
            "Categories": entry(
                (record.tags.map { $0.prefix(1).uppercased() + $0.dropFirst() } + ["Quality images"])
                    .joined(separator: "|"), "commons-categories"),
            "Assessments": entry("", "commons-categories"),
            "ImageDescription": entry(
                "<p>A photo of <i>\(record.title)</i> &amp; more.</p>", "commons-desc-page", hidden: false),
            "DateTimeOriginal": entry("2021-05-2\(number % 10)", "commons-desc-page", hidden: false),
            "Credit": entry("<span class=\"int-own-work\" lang=\"en\">Own work</span>", "commons-desc-page"),
            "Artist": entry(
                number % 5 == 0
                    ? record.creator
                    : "<a href=\"//commons.wikimedia.org/w/index.php?title=User:\(user)&amp;action=edit&amp;"
                        + "redlink=1\" "
                        + "class=\"new\" title=\"User:\(record.creator)\">\(record.creator)</a>",
                "commons-desc-page", hidden: false),
            "GPSLatitude": entry("48.85\(number % 10)", "commons-desc-page", hidden: false),
            "LicenseShortName": entry(publicDomain ? "Public domain" : "CC BY-SA 4.0", "commons-desc-page"),
            "UsageTerms": entry(
                publicDomain ? "Public domain" : "Creative Commons Attribution-Share Alike 4.0", "commons-desc-page"),
            "AttributionRequired": entry(publicDomain ? "false" : "true", "commons-desc-page"),
            "Copyrighted": entry(publicDomain ? "False" : "True", "commons-desc-page"),
            "Restrictions": entry("", "commons-desc-page"),
            "License": entry(publicDomain ? "pd" : "cc-by-sa-4.0", "commons-templates"),
        ]
        if !publicDomain {
            meta["LicenseUrl"] = entry("https://creativecommons.org/licenses/by-sa/4.0", "commons-desc-page")
        }
        if number % 5 != 0 { meta["ObjectName"] = entry(record.title, "mediawiki-metadata") }
        return meta
    }

    static func json(_ object: Any) -> String {
        StandInResponse.jsonText(object)
    }
}

/// Mutable stand-in settings beyond `StandInState`, shared by copies of the struct.
private final class Settings: Sendable {
    struct Values {
        var apiError: (code: String, info: String)?
        var ignoresFormatVersion = false
    }

    let values = Mutex(Values())
}
