import Foundation
import HTTPTypes
import Hummingbird
import TesseraCore

/// The one JSON encoding the API and `tessera search --json` share: keys sorted, so the same answer is
/// always the same bytes (Foundation on Linux does not keep declaration order).
public enum JSONBody {
    public static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        // Every type the API encodes is plain data; failing here would be a programming error.
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }

    /// A section as the API sends it (written by `FastJSON`: the same bytes as `encode(_:)`, faster).
    public static func encode(_ section: SectionResult) -> Data {
        var json = FastJSON(capacity: 16 * 1024)
        json.section(section)
        return Data(json.bytes)
    }

    /// A section as `searchResponse` takes it.
    public static func sectionBuffer(_ section: SectionResult) -> ByteBuffer {
        var json = FastJSON(capacity: 16 * 1024)
        json.section(section)
        return ByteBuffer(bytes: json.bytes)
    }

    /// A whole search answer, the same bytes `/api/search` sends.
    public static func encode(_ response: SearchResponse) -> Data {
        let parts = searchResponse(
            query: response.query, scope: response.scope, page: response.page,
            encodedSections: response.sections.map(sectionBuffer), groups: response.groups)
        var data = Data(capacity: parts.reduce(0) { $0 + $1.readableBytes })
        for part in parts { data.append(contentsOf: part.readableBytesView) }
        return data
    }

    /// `SearchResponse`'s encoding, put together from sections already encoded: byte for byte what
    /// `encode(SearchResponse(...))` gives (keys sorted: groups when computed, page, query, scope, sections).
    /// In parts, sent one after the other: `all`'s answer is ~400 KB, and joining it into one buffer (then
    /// copying that into the response) took ~0.3 ms.
    public static func searchResponse(
        query: String, scope: String, page: Int, encodedSections: [ByteBuffer], groups: [SearchResponse.Group]? = nil
    ) -> [ByteBuffer] {
        var head = FastJSON(capacity: 1024)
        head.raw("{")
        if let groups {
            head.raw(#""groups":"#)
            head.groups(groups)
            head.raw(",")
        }
        head.raw(#""page":"#)
        head.int(page)
        head.raw(#","query":"#)
        head.string(query)
        head.raw(#","scope":"#)
        head.string(scope)
        head.raw(#","sections":["#)
        var parts = [ByteBuffer(bytes: head.bytes)]
        parts.reserveCapacity(encodedSections.count * 2 + 1)
        for (index, section) in encodedSections.enumerated() {
            if index > 0 { parts.append(comma) }
            parts.append(section)
        }
        parts.append(end)
        return parts
    }

    private static let comma = ByteBuffer(string: ",")
    private static let end = ByteBuffer(string: "]}")

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        response(json: encode(value), status: status)
    }

    static func response(json data: Data, status: HTTPResponse.Status = .ok) -> Response {
        response(body: .init(byteBuffer: ByteBuffer(bytes: data)), status: status)
    }

    /// JSON written in parts (`searchResponse`), with its length known.
    static func response(json parts: [ByteBuffer], status: HTTPResponse.Status = .ok) -> Response {
        response(body: .init(contentsOf: parts), status: status)
    }

    private static func response(body: ResponseBody, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: body)
    }
}
