import Foundation
import HTTPTypes
import Hummingbird

/// Openverse's API (`/openverse/v1/images/`), as an anonymous caller sees it: DRF `detail` errors,
/// at most 20 results a page and 20 pages, and a 404 for unknown ids.
///
/// Every fifth record (`number % 5 == 0`) has a null `title`, `creator_url` and `filesize`, as
/// real records often do; licences rotate through the kinds Openverse names differently.
public struct OpenverseStandIn: StandInProvider {
    public let state = StandInState()
    /// Whether a throttled answer carries `Retry-After` (DRF sends it; a proxy may strip it, leaving
    /// only the wait in the message).
    public let sendsRetryAfterHeader: Bool
    /// Every n-th record (`number % n == 1`) is a Wikimedia Commons photo rather than a Flickr one, with
    /// Commons' landing page (`?curid={page id}`, the record's number, as the Wikimedia stand-in's page id).
    /// `nil`: every record is from Flickr, whose photo id is the record's number as in the Flickr stand-in.
    public let commonsEvery: Int?

    public init(sendsRetryAfterHeader: Bool = true, commonsEvery: Int? = nil) {
        self.sendsRetryAfterHeader = sendsRetryAfterHeader
        self.commonsEvery = commonsEvery.map { max(2, $0) }
    }

    public func environment(origin: String) -> [String: String] {
        ["TESSERA_OPENVERSE_URL": "\(origin)/openverse/v1/"]
    }

    public func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/openverse/v1/images/") { request, _ in await self.search(request) }
        router.get("/openverse/v1/images/{id}/") { request, context in
            await self.detail(request, id: context.parameters.get("id") ?? "")
        }
    }

    // MARK: - Routes

    private func search(_ request: Request) async -> Response {
        let query = request.queryValues
        return await StandInResponse.answer(request, state: state, term: query["q"], failure: failure) {
            searchAnswer(query, origin: request.standInOrigin)
        }
    }

    private func detail(_ request: Request, id: String) async -> Response {
        await StandInResponse.answer(request, state: state, term: id, failure: failure) {
            guard let record = corpusRecord(uuid: id) else { return Self.notFound }
            return StandInResponse.json(image(record, origin: request.standInOrigin))
        }
    }

    private func failure(_ behavior: StandInBehavior) -> Response {
        switch behavior {
        case .invalidKey:
            return Self.detail("Authentication credentials were not provided.", status: .unauthorized)
        case .rateLimited(let retryAfter):
            let wait = retryAfter ?? 3600
            let headers = sendsRetryAfterHeader ? StandInResponse.retryHeaders(wait, state: state) : [:]
            return Self.json(
                ["detail": "Request was throttled. Expected available in \(wait) second\(wait == 1 ? "" : "s")."],
                status: .tooManyRequests, headers: headers)
        default:
            return Self.detail("A server error occurred.", status: .internalServerError)
        }
    }

    // MARK: - Search

    private func searchAnswer(_ query: [String: String], origin: String) -> Response {
        for (name, successor) in [
            ("li", "license"), ("lt", "license_type"), ("pagesize", "page_size"),
            ("provider", "source"),
        ] where query[name] != nil {
            let message = "Parameter '\(name)' is deprecated in this release of the API. Use '\(successor)' instead."
            return Self.fieldError(name, message)
        }
        guard let pageSize = Int(query["page_size"] ?? "20") else {
            return Self.fieldError("page_size", "A valid integer is required.")
        }
        guard let page = Int(query["page"] ?? "1") else {
            return Self.fieldError("page", "A valid integer is required.")
        }
        // Openverse raises NotAuthenticated with the max-value message: a 401, not a 400.
        if pageSize > 20 { return Self.detail("Ensure this value is less than or equal to 20.", status: .unauthorized) }
        if pageSize < 1 { return Self.fieldError("page_size", "Ensure this value is greater than or equal to 1.") }
        if page < 1 { return Self.fieldError("page", "Ensure this value is greater than or equal to 1.") }
        if page > 20 { return Self.fieldError("page", "Ensure this value is less than or equal to 20.") }
        if let mature = query["mature"], !["true", "false", "1", "0"].contains(mature.lowercased()) {
            return Self.fieldError("mature", "Must be a valid boolean.")
        }
        let known = [
            "by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd", "cc0", "pdm", "sampling+", "nc-sampling+",
        ]
        for code in query["license"]?.lowercased().split(separator: ",") ?? [] where !known.contains(String(code)) {
            return Self.fieldError("license", "License '\(code)' does not exist.")
        }
        let term = query["q"] ?? ""
        let records = state.corpus.records(for: term).filter { Self.passes($0, query) }
        let pageCount = (records.count + pageSize - 1) / pageSize
        // Wording UNCONFIRMED: the docs only say pages past `page_count` are rejected.
        if page > max(pageCount, 1) {
            return Self.fieldError("page", "Invalid page: the last page of results is \(pageCount).")
        }
        var headers = HTTPFields()
        headers[HTTPField.Name("X-RateLimit-Limit-anon_burst")!] = "5/hour"
        headers[HTTPField.Name("X-RateLimit-Available-anon_burst")!] = "4"
        return Self.json(
            [
                "result_count": records.count, "page_count": pageCount, "page_size": pageSize, "page": page,
                "results": records.page(page, size: pageSize).map { image($0, origin: origin) },
            ], headers: headers)
    }

    /// Items looked up by id: a record of any query this stand-in has answered.
    private func corpusRecord(uuid: String) -> FakeRecord? {
        for request in state.requests {
            guard let term = request["q"] else { continue }
            if let record = state.corpus.records(for: term).first(where: { $0.uuid == uuid.lowercased() }) {
                return record
            }
        }
        return nil
    }

    // MARK: - Records

    /// The filters Openverse applies that the corpus can answer: `license` (codes), `license_type`
    /// (`commercial`: no `nc`; `modification`: no `nd`), `aspect_ratio`. Records have no category, size class
    /// or extension: those are recorded, not applied.
    static func passes(_ record: FakeRecord, _ query: [String: String]) -> Bool {
        let code = licenses[record.number % licenses.count].0
        if let wanted = query["license"]?.lowercased().split(separator: ",").map(String.init),
            !wanted.contains(code)
        {
            return false
        }
        for type in query["license_type"]?.split(separator: ",") ?? [] {
            if type == "commercial" && code.contains("nc") { return false }
            if type == "modification" && code.contains("nd") { return false }
        }
        switch query["aspect_ratio"] {
        case "wide": return record.width > record.height
        case "tall": return record.height > record.width
        case "square": return record.width == record.height
        default: return true
        }
    }

    /// (code, version, deed URL, the name attributions use) for the licences Openverse serves.
    static let licenses: [(String, String, String, String)] = [
        ("by", "2.0", "https://creativecommons.org/licenses/by/2.0/", "CC BY 2.0"),
        ("by-sa", "4.0", "https://creativecommons.org/licenses/by-sa/4.0/", "CC BY-SA 4.0"),
        ("cc0", "1.0", "https://creativecommons.org/publicdomain/zero/1.0/", "CC0 1.0"),
        ("pdm", "1.0", "https://creativecommons.org/publicdomain/mark/1.0/", "Public Domain Mark 1.0"),
        ("by-nc-nd", "3.0", "https://creativecommons.org/licenses/by-nc-nd/3.0/", "CC BY-NC-ND 3.0"),
        ("sampling+", "1.0", "https://creativecommons.org/licenses/sampling+/1.0/", "CC Sampling+ 1.0"),
    ]

    func image(_ record: FakeRecord, origin: String) -> [String: Any] {
        let sparse = record.number % 5 == 0
        let (code, version, deed, name) = Self.licenses[record.number % Self.licenses.count]
        let id = record.uuid
        let api = "\(origin)/openverse/v1/images/\(id)/"
        let slug = record.creator.replacingOccurrences(of: " ", with: "_")
        let title = sparse ? "This work" : "\"\(record.title)\""
        let commons = commonsEvery.map { record.number % $0 == 1 } ?? false
        var tags: [[String: Any]] = record.tags.map {
            ["name": $0, "accuracy": NSNull(), "unstable__provider": commons ? "wikimedia" : "flickr"]
        }
        if let first = record.tags.first {
            tags.append(["name": first, "accuracy": 0.93, "unstable__provider": "clarifai"])
        }
        let provider = commons ? "wikimedia" : "flickr"
        let landing =
            commons
            ? "https://commons.wikimedia.org/w/index.php?curid=\(record.number)"
            : "https://www.flickr.com/photos/\(slug)/\(record.number)"
        let creatorPage =
            commons ? "https://commons.wikimedia.org/wiki/User:\(slug)" : "https://www.flickr.com/photos/\(slug)"
        return [
            "id": id,
            "title": sparse ? NSNull() : record.title,
            "indexed_on": "2023-04-1\(record.number % 10)T08:15:00Z",
            "foreign_landing_url": landing,
            "url": "\(origin)/openverse/cdn/\(id).jpg",
            "creator": record.creator,
            "creator_url": sparse ? NSNull() : creatorPage,
            "license": code, "license_version": version, "license_url": deed,
            "provider": provider, "source": provider, "category": sparse ? NSNull() : "photograph",
            "filesize": sparse ? NSNull() : record.width * record.height / 4, "filetype": "jpg",
            "tags": tags,
            "attribution": "\(title) by \(record.creator) "
                + (["cc0", "pdm"].contains(code)
                    ? "is marked with \(name). To view the terms, visit \(deed)."
                    : "is licensed under \(name). To view a copy of this license, visit \(deed)."),
            "fields_matched": ["title"], "mature": false,
            "height": record.height, "width": record.width,
            "thumbnail": "\(api)thumb/", "detail_url": api,
            "related_url": "\(api)related/", "unstable__sensitivity": [String](),
        ]
    }

    // MARK: - Errors

    /// `StandInResponse.json` with extra headers (throttling and rate-limit counters).
    static func json(_ object: Any, status: HTTPResponse.Status = .ok, headers: HTTPFields) -> Response {
        StandInResponse.raw(
            StandInResponse.jsonText(object), status: status, contentType: "application/json", headers: headers)
    }

    static var notFound: Response { detail("Not found.", status: .notFound) }

    static func detail(_ message: String, status: HTTPResponse.Status) -> Response {
        StandInResponse.json(["detail": message], status: status)
    }

    /// A DRF validation error as Openverse's handler wraps it: `{"detail": {"field": ["message"]}}`.
    static func fieldError(_ field: String, _ message: String) -> Response {
        StandInResponse.json(["detail": [field: [message]]], status: .badRequest)
    }
}
