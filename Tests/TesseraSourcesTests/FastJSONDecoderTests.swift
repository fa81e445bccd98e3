import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

@testable import TesseraSources

/// `FastJSONDecoder` must read every source's answers exactly as `JSONDecoder` does: the stand-ins' real
/// answers, and 40 copies each with values swapped for other types, nulls, odd numbers and escapes,
/// keys dropped or repeated, and bytes broken, are decoded both ways and compared value by value
/// (or error by error).
@Suite("FastJSONDecoder reads source answers as JSONDecoder does", .serialized)
struct FastJSONDecoderTests {
    @Test func openverse() async throws {
        let body = try await answer(OpenverseStandIn()) { server, http in
            _ = try await OpenverseClient(
                endpoint: Endpoint(base: URL(string: "\(server.origin)/openverse/v1/")!), http: http
            ).search("red fox", in: .openverse, page: 1)
        }
        try compare(OpenverseWire.SearchResponse.self, body, seed: 1)
    }

    @Test func pixabay() async throws {
        let body = try await answer(PixabayStandIn()) { server, http in
            _ = try await PixabayClient(
                endpoint: Endpoint(base: URL(string: "\(server.origin)/pixabay/api/")!), apiKey: PixabayStandIn.apiKey,
                http: http
            ).search("red fox", in: .pixabay, page: 1)
        }
        try compare(PixabayWire.SearchResponse.self, body, seed: 2)
    }

    @Test func flickr() async throws {
        let body = try await answer(FlickrStandIn()) { server, http in
            _ = try await FlickrClient(
                endpoint: Endpoint(base: URL(string: "\(server.origin)/flickr/services/rest/")!),
                apiKey: FlickrStandIn.apiKey, http: http
            ).search("red fox", in: .flickr, page: 1)
        }
        let plain = FlickrWire.unwrappingJSONP(body)
        try compare(FlickrWire.SearchResponse.self, plain, seed: 3)
        try compare(FlickrWire.Status.self, plain, seed: 4)
    }

    @Test func wikimedia() async throws {
        let body = try await answer(WikimediaStandIn()) { server, http in
            _ = try await WikimediaClient(
                endpoint: Endpoint(base: URL(string: "\(server.origin)/wikimedia/w/api.php")!), http: http
            ).search("red fox", in: .wikimedia, page: 1)
        }
        try compare(WikimediaWire.Response.self, body, seed: 5)
    }

    @Test func itunes() async throws {
        let body = try await answer(ITunesStandIn()) { server, http in
            _ = try await ITunesClient(
                endpoint: Endpoint(base: URL(string: "\(server.origin)/itunes/")!), http: http, country: "US"
            ).search("red fox", in: .movies, page: 1)
        }
        try compare(ITunesWire.Envelope.self, body, seed: 6)
    }

    @Test func brokenDocumentsFailWithJSONDecodersError() throws {
        for text in ["", "{", #"{"a":1,}"#, "[01]", #"{"a":"\ud800"}"#, "\u{FEFF}{}", #"{"results": 5}"#, "nul"] {
            let data = Data(text.utf8)
            let expected = Result { try JSONDecoder().decode(OpenverseWire.SearchResponse.self, from: data) }
            let actual = Result { try FastJSONDecoder.decode(OpenverseWire.SearchResponse.self, from: data) }
            #expect(describe(actual) == describe(expected), "\(text)")
        }
    }

    // MARK: - Helpers

    /// The first body the client's search cached: the stand-in's answer as the client received it.
    private func answer<P: StandInProvider>(
        _ provider: P, _ search: (StandInServer, SourceHTTP) async throws -> Void
    ) async throws -> Data {
        let cache = MemoryResponseCache()
        try await withStandIn(provider, cache: cache) { server, http in try await search(server, http) }
        let key = try #require(await cache.keys.first)
        return try #require(await cache.body(for: key, now: Date()))
    }

    /// Decodes `body` and `rounds` mutations of it both ways; every pair must match. (Few: in a debug build
    /// each round costs milliseconds, and the suite runs beside others whose stand-ins answer within seconds;
    /// the seeds make each run the same, and a larger run is one edit away.)
    private func compare<T: Decodable>(_ type: T.Type, _ body: Data, seed: UInt64) throws {
        let document = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        var random = SplitMix64(seed: seed)
        var decodedBoth = 0
        let rounds = 40
        for round in 0..<rounds {
            let data = round == 0 ? body : mutated(document, &random)
            let expected = Result { try JSONDecoder().decode(type, from: data) }
            let actual = Result { try FastJSONDecoder.decode(type, from: data) }
            let (want, got) = (describe(expected), describe(actual))
            #expect(got == want, "round \(round): \(String(decoding: data.prefix(2000), as: UTF8.self))")
            if got != want { return }
            if case .success = expected { decodedBoth += 1 }
        }
        #expect(decodedBoth > rounds / 10, "many mutations still decode, so values are compared, not only errors")
    }

    private func describe<T>(_ result: Result<T, any Error>) -> String {
        switch result {
        case .success(let value): canonical(value)
        case .failure(let error): "error: \(error)"
        }
    }

    /// Every stored value, recursively; a dictionary's entries sorted (their order is the hash table's).
    private func canonical(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty && mirror.displayStyle != .collection && mirror.displayStyle != .dictionary {
            return String(reflecting: value)
        }
        var parts = mirror.children.map { "\($0.label ?? ""):\(canonical($0.value))" }
        if mirror.displayStyle == .dictionary { parts.sort() }
        return "\(mirror.subjectType)(\(parts.joined(separator: ", ")))"
    }

    private static var replacements: [Any] {
        [
            NSNull(), 0, -0.0, 7, -12, 1.5, 34.0, 0.1, 1e300, 2.5e-3, 9_007_199_254_740_993, "", "12", "x\"y\\z/é😀",
            true, false, [Any](), [String: Any](), ["_content": "in an object"], [1, "two", NSNull()],
        ]
    }

    /// The document with a few values replaced or dropped, written back as JSON, sometimes with a key
    /// repeated, slashes and letters escaped, or a byte broken.
    private func mutated(_ document: Any, _ random: inout SplitMix64) -> Data {
        func walk(_ value: Any) -> Any {
            if var object = value as? [String: Any] {
                // Not `pageid`: pages keyed by id are sorted by it, and ties keep the hash table's order,
                // which differs between any two dictionaries (JSONDecoder's own answers vary run to run).
                for key in object.keys.sorted() where key != "pageid" {
                    switch random.below(40) {
                    case 0: object[key] = Self.replacements[random.below(Self.replacements.count)]
                    case 1: object[key] = nil
                    default: object[key] = walk(object[key]!)
                    }
                }
                return object
            }
            if let array = value as? [Any] {
                return array.map {
                    random.below(30) == 0
                        ? Self.replacements[random.below(Self.replacements.count)] : walk($0)
                }
            }
            return value
        }
        let data = (try? JSONSerialization.data(withJSONObject: walk(document), options: [.fragmentsAllowed])) ?? Data()
        var text = String(decoding: data, as: UTF8.self)
        switch random.below(8) {
        case 0:
            // A repeated key: JSONDecoder keeps the first.
            if let range = text.range(of: #"":"#) {
                let start = text[..<range.lowerBound].lastIndex(of: "\"")!
                let key = text[start..<range.upperBound]
                text.insert(contentsOf: "\(key)\"repeated\",", at: start)
            }
        case 1: text = text.replacingOccurrences(of: "a", with: #"\u0061"#)
        case 2: text = text.replacingOccurrences(of: "e", with: #"\ud83d\ude00"#, options: [], range: nil)
        case 3:
            var bytes = Array(text.utf8)
            if !bytes.isEmpty {
                bytes[random.below(bytes.count)] = [0xFF, 0x22, 0x7B, 0x00][random.below(4)]
            }
            return Data(bytes)
        default: break
        }
        return Data(text.utf8)
    }
}
