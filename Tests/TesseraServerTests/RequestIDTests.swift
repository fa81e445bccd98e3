import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TesseraCore
import TesseraServer
import TesseraTestSupport
import Testing

/// Every request has an id, echoed in its answer and carried by every log line it causes.
@Suite("Request ids over HTTP")
struct RequestIDTests {
    let requestID = HTTPField.Name("X-Request-Id")!

    @Test func aSaneIncomingIdIsEchoedAndAMissingOrInsaneOneIsMade() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let given = try await client.execute(uri: "/api/health", method: .get, headers: [requestID: "abc"])
            #expect(given.headers[requestID] == "abc")

            let none = try await client.execute(uri: "/api/health", method: .get)
            let made = try #require(none.headers[requestID])
            #expect(made.count == 16 && made.allSatisfy(\.isHexDigit), "\(made)")
            let again = try await client.execute(uri: "/api/health", method: .get)
            #expect(again.headers[requestID] != made)

            for insane in [String(repeating: "x", count: 129), "two words", "caf\u{E9}"] {
                let answer = try await client.execute(uri: "/api/health", method: .get, headers: [requestID: insane])
                let echoed = try #require(answer.headers[requestID])
                #expect(echoed != insane && echoed.count == 16, "\(echoed)")
            }
        }
    }

    @Test func errorAnswersCarryTheIdToo() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let missing = try await client.execute(
                uri: "/api/nothing-here", method: .get, headers: [requestID: "e-404"])
            #expect(missing.status == .notFound)
            #expect(missing.headers[requestID] == "e-404")
            let bad = try await client.execute(uri: "/api/search", method: .get, headers: [requestID: "e-400"])
            #expect(bad.status == .badRequest)
            #expect(bad.headers[requestID] == "e-400")
        }
    }

    @Test func theSourceCallsOfASearchLogItsId() async throws {
        // Given the app's logger with the request-id metadata provider, as `tessera serve` installs it.
        let log = LogCapture()
        let logger = log.logger(level: .debug, metadataProvider: .requestID)
        try await withTessera(StandInSet().list, logger: logger) { client, _ in
            // When a search with an id goes through the stand-ins (a query no cache has seen).
            let query = "fox-\(UUID().uuidString.prefix(8))"
            let response = try await client.execute(
                uri: "/api/search?q=\(query)&scope=all", method: .get, headers: [requestID: "search-1"])
            #expect(response.status == .ok)
            #expect(response.headers[requestID] == "search-1")

            // Then the source layer's lines for it carry that id.
            let fetched = log.entries.filter { $0.message == "fetched" && $0.metadata["url"]?.contains(query) == true }
            #expect(fetched.count >= 2, "\(log.entries)")
            for line in fetched { #expect(line.metadata["request_id"] == "search-1", "\(line.metadata)") }
            // And lines logged outside any request have none.
            let startup = log.entries.filter { $0.message == "connections" }
            #expect(startup.count == 1 && startup.allSatisfy { $0.metadata["request_id"] == nil })

            // And a streamed search, answered as an event stream.
            let streamed = "lynx-\(UUID().uuidString.prefix(8))"
            let stream = try await client.execute(
                uri: "/api/search/stream?q=\(streamed)&scope=all", method: .get, headers: [requestID: "stream-1"])
            #expect(stream.headers[requestID] == "stream-1")
            let streamLines = log.entries.filter {
                $0.message == "fetched" && $0.metadata["url"]?.contains(streamed) == true
            }
            #expect(streamLines.count >= 2, "\(log.entries)")
            for line in streamLines { #expect(line.metadata["request_id"] == "stream-1", "\(line.metadata)") }
        }
    }

    @Test func anImageFetchLogsItsRequestsIdAndACachedAnswerEchoesOne() async throws {
        let log = LogCapture()
        let logger = log.logger(level: .debug, metadataProvider: .requestID)
        try await withTessera(StandInSet().list, logger: logger) { client, _ in
            let search = try await client.execute(uri: "/api/search?q=fox&scope=pixabay", method: .get)
                .json(SearchResponse.self)
            let url = try #require(search.sections.first?.items.compactMap { $0.thumbnail?.url }.first)

            // When the thumbnail is fetched from its host for a request with an id.
            let first = try await client.execute(
                uri: url, method: .get, headers: [requestID: "img-1", .accept: "image/jpeg"])
            #expect(first.status == .ok)
            #expect(first.headers[requestID] == "img-1")
            // Then the fetcher's line about the host's answer carries it.
            let fetched = log.entries.filter { $0.message == "image host answered" }
            #expect(!fetched.isEmpty, "\(log.entries)")
            for line in fetched { #expect(line.metadata["request_id"] == "img-1", "\(line.metadata)") }

            // And the cached answer, from the connection's pipeline, echoes or makes one as well.
            let hit = try await client.execute(
                uri: url, method: .get, headers: [requestID: "img-2", .accept: "image/jpeg"])
            #expect(hit.headers[requestID] == "img-2")
            let anonymous = try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"])
            #expect(anonymous.headers[requestID]?.count == 16)
        }
    }
}
