import Foundation
import TesseraCore

/// Openverse images: `GET {base}images/?q=…&page=…&page_size=20&mature=false`, anonymously.
///
/// Anonymous callers get at most 20 results a page and 20 pages a query; a larger `page_size`
/// answers 401 and a later page 400, so neither is ever asked for.
public struct OpenverseClient: MediaSource {
    /// `MAX_PAGINATION_DEPTH` for anonymous callers.
    static let maxPage = 20
    /// Anonymous callers may make only a few requests an hour and about a hundred a day
    /// (`anon_burst`, `anon_sustained`), so an answer is kept for a day: asking again the same
    /// day would spend that quota on results that barely change.
    static let cacheTTL: Duration = .seconds(24 * 60 * 60)

    public let id = SourceID.openverse
    public let sections: [SectionID] = [.openverse]
    public let kinds: [ItemKind] = [.image]
    let endpoint: Endpoint
    let http: SourceHTTP

    public init(endpoint: Endpoint, http: SourceHTTP) {
        self.endpoint = endpoint
        self.http = http
    }

    public var availability: SourceAvailability { .enabled }

    public func search(_ query: String, in section: SectionID, page: Int) async throws -> SourcePage {
        try await search(query, in: section, page: page, filters: .none)
    }

    public func search(
        _ query: String, in section: SectionID, page: Int, filters: SearchFilters
    ) async throws -> SourcePage {
        guard page <= Self.maxPage else { return .empty }
        let url = endpoint.url(
            "images/",
            query: [
                ("q", query), ("page", String(page)), ("page_size", String(SearchRequest.pageSize)),
                ("mature", "false"),
            ] + Self.filterParameters(filters))
        return try await http.get(url, source: id, ttl: Self.cacheTTL) { response throws(SourceError) in
            if let failure = Self.failure(response) {
                // Past the last page Openverse refuses the `page`: that is the end of the results.
                if response.status == 400, Self.errorBody(response)?.detail?.fieldNames == ["page"] {
                    return .empty
                }
                throw failure
            }
            return Self.page(try response.decode(OpenverseWire.SearchResponse.self, source: id), page: page)
        }
    }

    static func page(_ wire: OpenverseWire.SearchResponse, page: Int) -> SourcePage {
        let lastPage = min(wire.page_count?.value ?? 0, maxPage)
        return SourcePage(
            items: wire.results.decoded().map(item), total: ServiceNumbers.total(wire.result_count?.value),
            hasMore: page < lastPage)
    }

    public func item(nativeID: String) async throws -> Item {
        // Anything else would be a different path under `images/` (`stats/`, `oembed/`) or a 404.
        guard Self.isUUID(nativeID) else { throw SourceError.notFound(id, id: nativeID) }
        let url = endpoint.url("images/\(nativeID)/", query: [])
        return try await http.get(url, source: id, ttl: Self.cacheTTL) { response throws(SourceError) in
            if response.status == 404 { throw .notFound(id, id: nativeID) }
            if let failure = Self.failure(response) { throw failure }
            return Self.item(try response.decode(OpenverseWire.Image.self, source: id))
        }
    }

    /// `8-4-4-4-12` hex digits.
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    // MARK: - Errors

    /// Openverse speaks Django REST framework: a JSON `detail` with a 4xx status.
    static func failure(_ response: SourceHTTP.Response) -> SourceError? {
        let id = SourceID.openverse
        if response.status == 429 {
            return .rateLimited(id, retryAfter: response.retryAfterSeconds ?? throttleWait(response))
        }
        if let common = response.commonFailure(id) { return common }
        guard response.status != 200 else { return nil }
        // 401 is what an anonymous `page_size` over 20 gets; like 400 it is a request we should not have made.
        let message = errorBody(response)?.detail?.message.trimmingWhitespace ?? ""
        return .rejected(id, detail: message.isEmpty ? "HTTP \(response.status)" : message)
    }

    static func errorBody(_ response: SourceHTTP.Response) -> OpenverseWire.ErrorBody? {
        try? JSONDecoder().decode(OpenverseWire.ErrorBody.self, from: response.body)
    }

    /// N from DRF's `Request was throttled. Expected available in N seconds.`
    static func throttleWait(_ response: SourceHTTP.Response) -> Int? {
        guard case .text(let text) = errorBody(response)?.detail,
            let range = text.range(of: "available in ")
        else { return nil }
        return ServiceNumbers.wait(Int(text[range.upperBound...].prefix { $0.isNumber }))
    }

    // MARK: - Mapping

    static func item(_ image: OpenverseWire.Image) -> Item {
        var sizes: [ImageSize] = []
        if let thumbnail = nonEmpty(image.thumbnail) {
            // The API renders it on request; its size is not in the answer.
            sizes.append(ImageSize(name: "thumbnail", url: thumbnail))
        }
        let (width, height) = (ServiceNumbers.side(image.width?.value), ServiceNumbers.side(image.height?.value))
        if let original = nonEmpty(image.url) {
            sizes.append(ImageSize(name: "original", url: original, width: width, height: height))
        }
        let original = sizes.last { $0.name == "original" }?.ref
        let thumbnail = sizes.first?.ref

        let title = nonEmpty(image.title).map(PlainText.fromHTML) ?? ""
        let creator = nonEmpty(image.creator).map {
            Creator(name: PlainText.fromHTML($0), url: nonEmpty(image.creator_url))
        }
        var license = Licenses.openverse(
            license: nonEmpty(image.license), version: image.license_version, url: nonEmpty(image.license_url))
        if let code = nonEmpty(image.license) { license.name = licenseName(code, version: image.license_version) }
        return Item(
            id: ItemID(source: .openverse, nativeID: image.id), kind: .image,
            title: title.isEmpty ? "Untitled" : title,
            tags: Tags.normalize((image.tags ?? []).decoded().map(\.name)),
            creator: creator?.name.isEmpty == false ? creator : nil, license: license,
            pageURL: nonEmpty(image.foreign_landing_url),
            thumbnail: thumbnail, preview: original ?? thumbnail, full: original ?? thumbnail,
            sizes: sizes, metadata: metadata(image))
    }

    /// Every field the item's other properties do not already show, in the API's order. Left out: the API's
    /// own navigation links (`detail_url`, `related_url`, `thumbnail`), which mean nothing to a person and
    /// would show the browser which API host (maybe a private mirror) the server uses.
    static func metadata(_ image: OpenverseWire.Image) -> [MetadataEntry] {
        var metadata: [MetadataEntry] = []
        metadata.add("Attribution", image.attribution)
        metadata.add("Provider", image.provider)
        metadata.add("Source", image.source)
        metadata.add("Category", image.category)
        metadata.add("File type", image.filetype)
        metadata.add("File size", ServiceNumbers.bytes(image.filesize?.value).map(Format.bytes))
        metadata.add(
            "Original size",
            Format.dimensions(ServiceNumbers.side(image.width?.value), ServiceNumbers.side(image.height?.value)))
        let code = [image.license, image.license_version].compactMap(nonEmpty).joined(separator: " ")
        metadata.add("License code", code)
        metadata.add("Indexed on", image.indexed_on)
        metadata.add("Fields matched", (image.fields_matched ?? []).decoded().joined(separator: ", "))
        metadata.add("Mature", image.mature.map { $0 ? "yes" : "no" })
        metadata.add("Sensitivity", (image.unstable__sensitivity ?? []).decoded().joined(separator: ", "))
        let machineTags = (image.tags ?? []).decoded().filter { $0.accuracy != nil }.map(\.name)
        metadata.add("Machine tags", Tags.normalize(machineTags).joined(separator: ", "))
        return metadata
    }

    /// The name Openverse itself shows (`openverse_attribution`'s `License.name`): "CC BY 2.0",
    /// "CC0 1.0", "Public Domain Mark 1.0", "CC Sampling+ 1.0". Marks, CC0 and the retired
    /// licences only ever had version 1.0.
    static func licenseName(_ code: String, version: String?) -> String {
        let code = code.lowercased()
        let retired: Set = ["sampling+", "nc-sampling+", "sa"]
        var name: String
        switch code {
        case "pdm": name = "Public Domain Mark"
        case "cc0": name = "CC0"
        case "sampling+": name = "CC Sampling+"
        case "nc-sampling+": name = "CC NC-Sampling+"
        // Upper case is all the other codes need: a `replacing` for the two above showed in every page's mapping.
        default: name = "CC " + code.uppercased()
        }
        let fixedVersion = code == "pdm" || code == "cc0" || retired.contains(code)
        if let version = fixedVersion ? "1.0" : nonEmpty(version) { name += " \(version)" }
        return name
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingWhitespace, !text.isEmpty else { return nil }
        return text
    }
}
