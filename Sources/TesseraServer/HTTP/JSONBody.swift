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

    /// A whole search answer, the same bytes `/api/search` sends.
    public static func encode(_ response: SearchResponse) -> Data {
        searchResponse(
            query: response.query, scope: response.scope, page: response.page,
            encodedSections: response.sections.map { encode($0) }, groups: response.groups)
    }

    /// `SearchResponse`'s encoding, put together from sections already encoded: byte for byte what
    /// `encode(SearchResponse(...))` gives (keys sorted: groups when computed, page, query, scope, sections).
    public static func searchResponse(
        query: String, scope: String, page: Int, encodedSections: [Data], groups: [SearchResponse.Group]? = nil
    ) -> Data {
        var data = Data("{".utf8)
        if let groups {
            data.append(contentsOf: #""groups":"#.utf8)
            data.append(encode(groups))
            data.append(UInt8(ascii: ","))
        }
        data.append(contentsOf: #""page":\#(page),"query":"#.utf8)
        data.append(encode(query))
        data.append(contentsOf: #","scope":"#.utf8)
        data.append(encode(scope))
        data.append(contentsOf: #","sections":["#.utf8)
        for (index, section) in encodedSections.enumerated() {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            data.append(section)
        }
        data.append(contentsOf: "]}".utf8)
        return data
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        response(json: encode(value), status: status)
    }

    static func response(json data: Data, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
