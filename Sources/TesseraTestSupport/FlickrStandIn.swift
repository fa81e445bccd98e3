import Foundation
import HTTPTypes
import Hummingbird
import TesseraCore

/// Flickr's REST API (`/flickr/services/rest/`): every method behind one URL picked by `method=`, errors
/// as HTTP 200 with `{"stat":"fail","code":N,"message":…}`, JSONP unless `nojsoncallback=1`, `per_page`
/// capped at 500 and at most 4,000 results a query. Search and getInfo are spoken; other methods are not.
public struct FlickrStandIn: StandInProvider {
    public static let apiKey = "test-flickr-key"
    public let state = StandInState()
    static let resultCap = 4_000
    static let invalidKeyMessage = "Invalid API Key (Key has invalid format)"

    public init() {}

    public func environment(origin: String) -> [String: String] {
        ["TESSERA_FLICKR_URL": "\(origin)/flickr/services/rest/", "FLICKR_API_KEY": Self.apiKey]
    }

    public func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/flickr/services/rest/") { request, _ in await self.rest(request) }
    }

    private func rest(_ request: Request) async -> Response {
        let query = request.queryValues
        let wrapping = Wrapping(query)
        return await StandInResponse.answer(request, state: state, term: query["text"] ?? query["photo_id"]) {
            behavior in
            switch behavior {
            case .invalidKey: fail(100, Self.invalidKeyMessage, wrapping)
            case .rateLimited(let retryAfter): rateLimited(retryAfter)
            default: fail(105, "Service currently unavailable", wrapping)
            }
        } normal: {
            normalAnswer(query, wrapping: wrapping, origin: request.standInOrigin)
        }
    }

    /// Flickr does not document how it throttles (docs/sources.md: unconfirmed). This is the plain HTTP form
    /// every client has to handle anyway.
    private func rateLimited(_ retryAfter: Int?) -> Response {
        StandInResponse.raw(
            "Too Many Requests", status: .tooManyRequests, contentType: "text/plain",
            headers: StandInResponse.retryHeaders(retryAfter, state: state))
    }

    // MARK: - Checking the request as Flickr does

    private func normalAnswer(_ query: [String: String], wrapping: Wrapping, origin: String) -> Response {
        if case .unsupported(let format) = wrapping {
            // Only JSON is spoken here; Flickr's default REST format is XML, so its error comes as XML.
            let body =
                "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<rsp stat=\"fail\">\n"
                + "\t<err code=\"111\" msg=\"Format &quot;\(format)&quot; not found\" />\n</rsp>\n"
            return StandInResponse.raw(body, status: .ok, contentType: "text/xml; charset=utf-8")
        }
        let method = query["method"] ?? ""
        guard ["flickr.photos.search", "flickr.photos.getInfo"].contains(method) else {
            return fail(112, "Method \"\(method)\" not found", wrapping)
        }
        guard query["api_key"] == Self.apiKey else { return fail(100, Self.invalidKeyMessage, wrapping) }
        if method == "flickr.photos.getInfo" { return info(query, wrapping: wrapping) }
        return search(query, wrapping: wrapping, origin: origin)
    }

    private func search(_ query: [String: String], wrapping: Wrapping, origin: String) -> Response {
        let text = query["text"] ?? ""
        let tags = (query["tags"] ?? "").replacingOccurrences(of: ",", with: " ")
        guard !text.isEmpty || !tags.isEmpty else {
            return fail(
                3, "Parameterless searches have been disabled. Please use flickr.photos.getRecent instead.", wrapping)
        }
        let requested = Int(query["per_page"] ?? "") ?? 100
        let perPage = requested < 1 ? 100 : min(requested, 500)
        let page = max(1, Int(query["page"] ?? "") ?? 1)
        guard (page - 1) * perPage < Self.resultCap else {
            return fail(20, "Excessive photo offset in search", wrapping)
        }
        // Every record is a photo: content types without photos (2 screenshots, 3 other, 5) and videos find nothing.
        let hasPhotos = !["2", "3", "5"].contains(query["content_type"] ?? "7") && query["media"] != "videos"
        let all = hasPhotos ? state.corpus.records(for: text.isEmpty ? tags : text) : []
        guard !all.isEmpty else {
            let photos: [String: Any] = ["page": page, "pages": 0, "perpage": perPage, "total": 0, "photo": []]
            return ok(["photos": photos], wrapping)
        }
        let extras = Set((query["extras"] ?? "").split(separator: ",").map(\.trimmingWhitespace))
        let reachable = Array(all.prefix(Self.resultCap))
        // `total` as a string, the older wire form, so clients prove they read both.
        let photos: [String: Any] = [
            "page": page, "pages": (all.count + perPage - 1) / perPage, "perpage": perPage, "total": String(all.count),
            "photo": reachable.page(page, size: perPage).map { photo($0, extras: extras, origin: origin) },
        ]
        return ok(["photos": photos], wrapping)
    }

    private func info(_ query: [String: String], wrapping: Wrapping) -> Response {
        let id = query["photo_id"] ?? ""
        guard let record = corpusRecord(id: id) else {
            return fail(1, "Photo \"\(id)\" not found (invalid ID)", wrapping)
        }
        let fields = Fields(record)
        let tags = record.tags.enumerated().map { index, tag -> [String: Any] in
            [
                "id": "\(fields.owner)-\(record.number)-\(index)", "author": fields.owner, "authorname": record.creator,
                "raw": tag.capitalized, "_content": tag, "machine_tag": 0,
            ]
        }
        let photo: [String: Any] = [
            "id": String(record.number), "secret": fields.secret, "server": fields.server, "farm": fields.farm,
            "dateuploaded": String(fields.uploaded), "isfavorite": 0, "license": fields.license, "safety_level": "0",
            "rotation": 0, "originalsecret": fields.originalSecret, "originalformat": "jpg",
            "owner": [
                "nsid": fields.owner, "username": record.creator, "realname": "\(record.creator) Real",
                "location": "", "iconserver": "7372", "iconfarm": 8, "path_alias": fields.pathAlias ?? NSNull(),
            ] as [String: Any],
            "title": ["_content": record.title], "description": ["_content": fields.description(record)],
            "visibility": ["ispublic": 1, "isfriend": 0, "isfamily": 0],
            "dates": [
                "posted": String(fields.uploaded), "taken": fields.taken, "takengranularity": 0, "takenunknown": "0",
                "lastupdate": String(fields.uploaded + 3600),
            ] as [String: Any],
            "views": String(fields.views), "comments": ["_content": "0"], "notes": ["note": []],
            "people": ["haspeople": 0], "tags": ["tag": tags],
            "urls": ["url": [["type": "photopage", "_content": fields.pageURL]]], "media": "photo",
        ]
        return ok(["photo": photo], wrapping)
    }

    /// Photos looked up by id: any record of any search this stand-in has answered.
    private func corpusRecord(id: String) -> FakeRecord? {
        guard let number = Int(id), number > 0 else { return nil }
        for request in state.requests {
            guard let term = request["text"], !term.isEmpty else { continue }
            if let record = state.corpus.records(for: term).first(where: { $0.number == number }) { return record }
        }
        return nil
    }

    // MARK: - Rendering

    /// One search photo with the extras asked for. Sizes and counts come as strings or ints, as Flickr
    /// mixes them, and sizes larger than the original are left out, as Flickr does.
    func photo(_ record: FakeRecord, extras: Set<String>, origin: String) -> [String: Any] {
        let fields = Fields(record)
        let number = record.number
        var photo: [String: Any] = [
            "id": String(number), "owner": fields.owner, "secret": fields.secret, "server": fields.server,
            "farm": fields.farm, "title": record.title, "ispublic": 1, "isfriend": 0, "isfamily": 0,
        ]
        func extra(_ name: String, _ values: [String: Any]) {
            if extras.contains(name) { photo.merge(values) { _, new in new } }
        }
        extra("description", ["description": ["_content": fields.description(record)]])
        extra("license", ["license": fields.license])
        extra("date_upload", ["dateupload": String(fields.uploaded)])
        extra("date_taken", ["datetaken": fields.taken, "datetakengranularity": "0", "datetakenunknown": 0])
        extra("owner_name", ["ownername": record.creator])
        extra("icon_server", ["iconserver": "7372", "iconfarm": 8])
        extra("original_format", ["originalsecret": fields.originalSecret, "originalformat": "jpg"])
        extra("tags", ["tags": record.tags.joined(separator: " ")])
        extra("o_dims", ["o_width": String(record.width), "o_height": record.height])
        extra("views", ["views": number % 2 == 0 ? String(fields.views) as Any : fields.views as Any])
        extra("media", ["media": "photo", "media_status": "ready"])
        extra("path_alias", ["pathalias": fields.pathAlias ?? NSNull()])
        let live = "\(origin)/flickr/live/\(fields.server)/\(number)_\(fields.secret)"
        if extras.contains("url_q") {
            photo.merge(["url_q": "\(live)_q.jpg", "height_q": 150, "width_q": "150"]) { _, new in new }
        }
        if extras.contains("url_z"), let size = Self.size(record, 640) {
            photo.merge(["url_z": "\(live)_z.jpg", "width_z": size.width, "height_z": String(size.height)]) { $1 }
        }
        if extras.contains("url_l"), let size = Self.size(record, 1024) {
            photo.merge(["url_l": "\(live)_b.jpg", "width_l": size.width, "height_l": String(size.height)]) { $1 }
        }
        return photo
    }

    /// The size of the rendition whose longest edge is `edge`; `nil` when the original is smaller.
    static func size(_ record: FakeRecord, _ edge: Int) -> (width: Int, height: Int)? {
        guard max(record.width, record.height) >= edge else { return nil }
        return Geometry.fit(width: record.width, height: record.height, maxSide: edge)
    }

    private func ok(_ object: [String: Any], _ wrapping: Wrapping) -> Response {
        var object = object
        object["stat"] = "ok"
        return render(object, wrapping)
    }

    private func fail(_ code: Int, _ message: String, _ wrapping: Wrapping) -> Response {
        render(["stat": "fail", "code": code, "message": message], wrapping)
    }

    /// Flickr errors keep HTTP 200; only `stat` says the call failed.
    private func render(_ object: [String: Any], _ wrapping: Wrapping) -> Response {
        let json = StandInResponse.jsonText(object)
        switch wrapping {
        case .jsonp(let callback):
            return StandInResponse.raw(
                "\(callback)(\(json))", status: .ok, contentType: "text/javascript; charset=utf-8")
        default:
            return StandInResponse.raw(json, status: .ok, contentType: "application/json; charset=utf-8")
        }
    }

    /// How the answer is framed: `format=json&nojsoncallback=1` is bare JSON, `format=json` alone is JSONP
    /// (`jsoncallback=` renames the function), anything else is a format this stand-in does not speak.
    enum Wrapping {
        case json
        case jsonp(String)
        case unsupported(String)

        init(_ query: [String: String]) {
            let format = query["format"] ?? "rest"
            if format != "json" {
                self = .unsupported(format)
            } else if query["nojsoncallback"] == "1" {
                self = .json
            } else {
                self = .jsonp(query["jsoncallback"].flatMap { $0.isEmpty ? nil : $0 } ?? "jsonFlickrApi")
            }
        }
    }
}

extension FlickrStandIn {
    /// The Flickr-only fields of a record, all derived from its number so answers repeat exactly.
    struct Fields {
        let owner: String
        let secret: String
        let originalSecret: String
        let server: String
        let farm: Int
        let license: String
        let uploaded: Int
        let taken: String
        let views: Int
        let pathAlias: String?
        let pageURL: String

        init(_ record: FakeRecord) {
            let number = record.number
            owner = "\(10_000_000 + number % 89_999_999)@N0\(number % 8)"
            secret = Self.hex(number, salt: 0x9E37_79B9)
            originalSecret = Self.hex(number, salt: 0x85EB_CA6B)
            server = String(1_000 + number % 9_000)
            farm = number % 9 + 1
            license = ["4", "9", "2"][number % 3]
            uploaded = 1_500_000_000 + (number % 1_000) * 86_400
            taken = "2017-06-0\(number % 9 + 1) 12:34:56"
            views = 100 + number % 997
            pathAlias = number % 2 == 0 ? "creator\(number % 7)" : nil
            pageURL = "https://www.flickr.com/photos/\(pathAlias ?? owner)/\(number)/"
        }

        /// A little HTML, as owners write it, so clients show that they strip it.
        func description(_ record: FakeRecord) -> String {
            "<b>\(record.title)</b> by \(record.creator) &amp; friends"
        }

        /// Ten hex digits, like Flickr's secrets.
        static func hex(_ number: Int, salt: UInt64) -> String {
            let value = (UInt64(number) &* salt &+ 0x2545_F491) % 0xFF_FFFF_FFFF
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: max(0, 10 - digits.count)) + digits
        }
    }
}
