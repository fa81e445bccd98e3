import Foundation
import TesseraClient
import TesseraTestSupport
import Testing

/// What a person sees when the server is not there or wants another token.
@Suite("TesseraClient: unreachable server and tokens")
struct ConnectionClientTests {
    @Test func anUnreachableServerSaysSoWithItsAddress() async throws {
        // A port that was free a moment ago: nothing listens there.
        let port = try LoopbackSocket.freePort()
        let server = URL(string: "http://127.0.0.1:\(port)")!
        let client = TesseraClient(serverURL: server)
        let error = await clientError { () async throws(TesseraClientError) in try await client.search("fox") }
        guard case .unreachable(let reported, _) = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(reported == server)
        #expect(error?.description.contains("127.0.0.1:\(port)") == true)
        #expect(error?.description.contains("running") == true)
        #expect(error?.description.contains("connection refused") == true, "\(String(describing: error))")
    }

    @Test func aWrongOrMissingTokenIsUnauthorized() async throws {
        try await withServer(token: "right-token-1234567890", clientToken: "wrong-token") { client, _ in
            let error = await clientError { () async throws(TesseraClientError) in try await client.galleries() }
            guard case .unauthorized = error else {
                Issue.record("expected unauthorized, got \(String(describing: error))")
                return
            }
            #expect(error?.description.contains("TESSERA_TOKEN") == true)
            let anonymous = TesseraClient(serverURL: client.serverURL)
            let missing = await clientError { () async throws(TesseraClientError) in try await anonymous.search("fox") }
            guard case .unauthorized = missing else {
                Issue.record("expected unauthorized without a token, got \(String(describing: missing))")
                return
            }
        }
    }

    @Test func aRateLimitedSearchSaysWhenToRetry() async throws {
        try await withServer(extraEnvironment: ["TESSERA_SEARCH_RATE": "1/h"]) { client, _ in
            _ = try await client.search("fox", scope: .pixabay)
            let error = await clientError { () async throws(TesseraClientError) in
                try await client.search("fox", scope: .pixabay)
            }
            guard case .rateLimited(let retryAfter?, let message) = error else {
                Issue.record("expected rate limited with Retry-After, got \(String(describing: error))")
                return
            }
            #expect(retryAfter > 0 && !message.isEmpty)
            #expect(error?.description.contains("Retry after \(retryAfter) seconds") == true)
        }
    }

    @Test func theRightTokenIsSentWithEveryRequest() async throws {
        try await withServer(token: "right-token-1234567890") { client, _ in
            #expect(try await client.createGallery(named: "Mine").name == "Mine")
            let item = try #require(try await client.search("fox", scope: .pixabay).sections.first?.items.first)
            #expect(try await client.image(try #require(item.thumbnail)).data.isEmpty == false)
            var sections = 0
            for try await _ in try await client.searchSections("fox", scope: .pixabay) { sections += 1 }
            #expect(sections == 1)
        }
    }
}
