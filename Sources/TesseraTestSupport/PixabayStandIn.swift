import Foundation
import HTTPTypes
import Hummingbird

/// Pixabay's API (`/pixabay/api/`), with its plain-text errors, 500-result cap and `per_page` range.
public struct PixabayStandIn: StandInProvider {
    public static let apiKey = "test-pixabay-key"
    public let state = StandInState()

    public init() {}

    public func environment(origin: String) -> [String: String] {
        ["TESSERA_PIXABAY_URL": "\(origin)/pixabay/api/", "PIXABAY_API_KEY": Self.apiKey]
    }

    public func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/pixabay/api/") { request, _ in await self.images(request) }
        router.get("/pixabay/api/videos/") { request, _ in await self.images(request) }
    }

    private func images(_ request: Request) async -> Response {
        let query = request.queryValues
        return await StandInResponse.answer(request, state: state, term: query["q"] ?? query["id"]) { behavior in
            switch behavior {
            case .invalidKey: invalidKey
            case .rateLimited(let retryAfter): rateLimited(retryAfter)
            default: StandInResponse.raw("?", status: .badRequest, contentType: "text/plain")
            }
        } normal: {
            normalAnswer(query, origin: request.standInOrigin)
        }
    }

    private var invalidKey: Response {
        error("[ERROR 400] Invalid API key. Note: This value is case-sensitive.")
    }

    private func rateLimited(_ retryAfter: Int?) -> Response {
        var headers = StandInResponse.retryHeaders(retryAfter, state: state)
        headers[HTTPField.Name("X-RateLimit-Limit")!] = "100"
        headers[HTTPField.Name("X-RateLimit-Remaining")!] = "0"
        headers[HTTPField.Name("X-RateLimit-Reset")!] = String(retryAfter ?? 60)
        return StandInResponse.raw(
            "API rate limit exceeded", status: .tooManyRequests, contentType: "text/plain", headers: headers)
    }

    private func error(_ text: String) -> Response {
        StandInResponse.raw(text, status: .badRequest, contentType: "text/html; charset=utf-8")
    }

    private func normalAnswer(_ query: [String: String], origin: String) -> Response {
        guard let key = query["key"], !key.isEmpty else {
            return error("[ERROR 400] Invalid or missing API key (https://pixabay.com/api/docs/).")
        }
        guard key == Self.apiKey else { return invalidKey }
        let perPage = Int(query["per_page"] ?? "20") ?? -1
        let page = Int(query["page"] ?? "1") ?? -1
        guard (3...200).contains(perPage) else { return error("[ERROR 400] \"per_page\" is out of valid range.") }
        guard page >= 1, page * perPage <= 500 + perPage - 1, (page - 1) * perPage < 500 else {
            return error("[ERROR 400] \"page\" is out of valid range.")
        }
        if let id = query["id"] {
            let record = corpusRecord(id: id)
            return StandInResponse.json([
                "total": record == nil ? 0 : 1, "totalHits": record == nil ? 0 : 1,
                "hits": record.map { [hit($0, origin: origin)] } ?? [],
            ])
        }
        let term = query["q"] ?? ""
        if term.count > 100 { return error("[ERROR 400] \"q\" is too long.") }
        let all = state.corpus.records(for: term).filter { Self.passes($0, query) }
        let reachable = Array(all.prefix(500))
        return StandInResponse.json([
            "total": all.count, "totalHits": reachable.count,
            "hits": reachable.page(page, size: perPage).map { hit($0, origin: origin) },
        ])
    }

    /// Items looked up by id: any record of any query this stand-in has handed out, or a generated one.
    private func corpusRecord(id: String) -> FakeRecord? {
        guard let number = Int(id), number > 0 else { return nil }
        for request in state.requests {
            if let term = request["q"],
                let record = state.corpus.records(for: term).first(where: { $0.number == number })
            {
                return record
            }
        }
        return nil
    }

    func hit(_ record: FakeRecord, origin: String) -> [String: Any] {
        let id = record.number
        let cdn = "\(origin)/pixabay/cdn/\(id)"
        let web = Self.fit(record, 640)
        let preview = Self.fit(record, 150)
        return [
            "id": id,
            "pageURL": "https://pixabay.com/photos/\(record.tags.joined(separator: "-"))-\(id)/",
            "type": "photo",
            "tags": record.tags.joined(separator: ", "),
            "previewURL": "\(cdn)_150.jpg", "previewWidth": preview.0, "previewHeight": preview.1,
            "webformatURL": "\(cdn)_640.jpg", "webformatWidth": web.0, "webformatHeight": web.1,
            "largeImageURL": "\(cdn)_1280.jpg",
            "imageWidth": record.width, "imageHeight": record.height, "imageSize": record.width * record.height / 4,
            "views": 1000 + id % 997, "downloads": 500 + id % 13, "collections": 7, "likes": 42, "comments": 3,
            "user_id": 7000 + id % 11, "user": record.creator,
            "userImageURL": "",
            "noAiTraining": false, "isAiGenerated": false, "isGRated": false, "isLowQuality": false,
            "userURL":
                "https://pixabay.com/users/\(record.creator.replacingOccurrences(of: " ", with: ""))-\(7000 + id % 11)/",
        ]
    }

    /// The filters Pixabay applies (docs/filters.md) that the corpus can answer: every record is a photo
    /// (so `illustration` and `vector` find nothing), `orientation`, `min_width`, `min_height`. Colours are
    /// not in the corpus: `colors` is recorded, not applied.
    static func passes(_ record: FakeRecord, _ query: [String: String]) -> Bool {
        if let type = query["image_type"], !["all", "photo"].contains(type) { return false }
        switch query["orientation"] {
        case "horizontal": if record.width <= record.height { return false }
        case "vertical": if record.height <= record.width { return false }
        default: break
        }
        if let minimum = query["min_width"].flatMap(Int.init), record.width < minimum { return false }
        if let minimum = query["min_height"].flatMap(Int.init), record.height < minimum { return false }
        return true
    }

    static func fit(_ record: FakeRecord, _ side: Int) -> (Int, Int) {
        let scale = Double(side) / Double(max(record.width, record.height))
        return (Int((Double(record.width) * scale).rounded()), Int((Double(record.height) * scale).rounded()))
    }
}
