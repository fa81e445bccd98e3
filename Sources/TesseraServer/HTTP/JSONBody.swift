import Foundation
import HTTPTypes
import Hummingbird

/// The one JSON encoding the API and `tessera search --json` share: keys sorted, so the same answer is
/// always the same bytes (Foundation on Linux does not keep declaration order).
public enum JSONBody {
    public static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        // Every type the API encodes is plain data; failing here would be a programming error.
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
