import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import TesseraFetcher
import TesseraGalleries
import TesseraServer
import TesseraTestSupport
import Testing

/// Expensive requests past a client's budget answer 429 with Retry-After while other clients are served.
/// Budgets are set tiny (a few an hour), so nothing here waits for a bucket to refill.
@Suite("Fair use per client")
struct FairUseTests {
    private static let proxied = ["TESSERA_TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1"]
    private static let forwarded = HTTPField.Name("X-Forwarded-For")!

    private static func from(_ address: String) -> HTTPFields { [forwarded: "198.51.100.1, \(address)"] }

    private static func expectRateLimited(_ response: TestResponse, within limit: Int) throws {
        #expect(response.status == .tooManyRequests)
        let retryAfter = try #require(response.headers[.retryAfter].flatMap { Int($0) })
        #expect((1...limit).contains(retryAfter), "whole seconds until one more is allowed")
        #expect(try response.apiError().code == "rate_limited")
    }

    @Test func aClientOverTheSearchLimitIsToldToWaitWhileAnotherIsServed() async throws {
        let environment = Self.proxied.merging(["TESSERA_SEARCH_RATE": "3/h"]) { $1 }
        try await withTessera([], extraEnvironment: environment) { client, _ in
            for _ in 0..<3 {
                let search = try await client.execute(
                    uri: "/api/search?q=cat", method: .get, headers: Self.from("203.0.113.7"))
                #expect(search.status == .ok)
            }
            let over = try await client.execute(
                uri: "/api/search?q=cat", method: .get, headers: Self.from("203.0.113.7"))
            try Self.expectRateLimited(over, within: 1200)
            let stream = try await client.execute(
                uri: "/api/search/stream?q=cat", method: .get, headers: Self.from("203.0.113.7"))
            try Self.expectRateLimited(stream, within: 1200)

            // Another address behind the same proxy has its own budget; so does the proxy itself.
            let other = try await client.execute(
                uri: "/api/search?q=cat", method: .get, headers: Self.from("192.0.2.5"))
            #expect(other.status == .ok)
            #expect(try await client.execute(uri: "/api/search?q=cat", method: .get).status == .ok)
            // Cheap routes are never counted.
            let health = try await client.execute(uri: "/api/health", method: .get, headers: Self.from("203.0.113.7"))
            #expect(health.status == .ok)
        }
    }

    @Test func urlImportsAndUploadsShareABudgetAndAddingResultsIsFree() async throws {
        let environment = Self.proxied.merging(["TESSERA_IMPORT_RATE": "2/h"]) { $1 }
        try await withTessera([], extraEnvironment: environment) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            let refused = #"{"url":"file:///etc/passwd"}"#
            for _ in 0..<2 {
                let answer = try await GalleriesAPITests.add(
                    client, gallery.id, json: refused, headers: Self.from("203.0.113.7"))
                #expect(answer.status == .forbidden, "counted, then refused for its scheme")
            }
            let over = try await GalleriesAPITests.add(
                client, gallery.id, json: refused, headers: Self.from("203.0.113.7"))
            try Self.expectRateLimited(over, within: 1800)
            var (headers, body) = GalleriesAPITests.multipart(StandInImage.jpeg)
            headers[Self.forwarded] = "203.0.113.7"
            let upload = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items", method: .post, headers: headers, body: body)
            try Self.expectRateLimited(upload, within: 1800)
            // Not an import: the body has no URL, so it is not counted (and is refused as before).
            let notImport = try await GalleriesAPITests.add(
                client, gallery.id, json: #"{"index": 0}"#, headers: Self.from("203.0.113.7"))
            #expect(notImport.status == .badRequest)

            headers[Self.forwarded] = "192.0.2.5"
            let otherUpload = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items", method: .post, headers: headers, body: body)
            #expect(otherUpload.status == .created)
        }
    }

    @Test func exportsHaveTheirOwnBudget() async throws {
        try await withTessera([], extraEnvironment: ["TESSERA_EXPORT_RATE": "1/h"]) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            #expect(try await client.execute(uri: "/api/galleries/\(gallery.id)/export", method: .get).status == .ok)
            let over = try await client.execute(uri: "/api/galleries/\(gallery.id)/export", method: .get)
            try Self.expectRateLimited(over, within: 3600)
        }
    }

    @Test func forwardedForIsIgnoredWhenThePeerIsNotATrustedProxy() async throws {
        let environment = ["TESSERA_SEARCH_RATE": "2/h", "TESSERA_TRUSTED_PROXIES": "10.1.2.3"]
        try await withTessera([], extraEnvironment: environment) { client, _ in
            for address in ["203.0.113.7", "192.0.2.5"] {
                let search = try await client.execute(
                    uri: "/api/search?q=cat", method: .get, headers: Self.from(address))
                #expect(search.status == .ok)
            }
            // A third "address" is still the same loopback peer, which has spent its budget.
            let over = try await client.execute(
                uri: "/api/search?q=cat", method: .get, headers: Self.from("192.0.2.99"))
            try Self.expectRateLimited(over, within: 1800)
        }
    }

    @Test(.timeLimit(.minutes(1))) func openEventStreamsAreCappedPerClient() async throws {
        let environment = Self.proxied.merging(["TESSERA_MAX_STREAMS_PER_CLIENT": "2", "TESSERA_HEARTBEAT": "0.2"]) {
            $1
        }
        try await withTessera([], extraEnvironment: environment) { client, _ in
            let port = try #require(client.port)
            let gallery = try await GalleriesAPITests.create(client)
            let request = { (address: String) in
                "GET /api/galleries/\(gallery.id)/events HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: \(address)\r\n\r\n"
            }
            /// Opens a stream and returns it with the start of its answer.
            func open(_ address: String) async throws -> (RawConnection, String) {
                let connection = try RawConnection(port: port)
                try connection.send(request(address))
                return (connection, try await offPool { try connection.receive() })
            }
            let (first, firstHead) = try await open("203.0.113.7")
            let (second, secondHead) = try await open("203.0.113.7")
            defer { second.close() }
            #expect(firstHead.hasPrefix("HTTP/1.1 200") && secondHead.hasPrefix("HTTP/1.1 200"))
            let (third, thirdHead) = try await open("203.0.113.7")
            third.close()
            #expect(thirdHead.hasPrefix("HTTP/1.1 429"))
            #expect(thirdHead.lowercased().contains("retry-after: 10") && thirdHead.contains("too_many_streams"))
            let (other, otherHead) = try await open("192.0.2.5")
            other.close()
            #expect(otherHead.hasPrefix("HTTP/1.1 200"), "another address has its own streams")

            // Once a stream ends (noticed at its next heartbeat), its slot is free again.
            first.close()
            var reopened = false
            for _ in 0..<100 where !reopened {
                let (again, head) = try await open("203.0.113.7")
                again.close()
                reopened = head.hasPrefix("HTTP/1.1 200")
                if !reopened { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(reopened)
        }
    }

    @Test func aBucketRefillsEvenlyOnItsClock() throws {
        let clock = Mutex(0.0)
        let fairUse = FairUse(rates: [.search: Rate(count: 2, period: 60)], now: { clock.withLock { $0 } })
        let client: [UInt8] = [203, 0, 113, 7]
        try fairUse.take(.search, client: client)
        try fairUse.take(.search, client: client)
        #expect(throws: FairUseError.rateLimited(.search, retryAfter: 30)) { try fairUse.take(.search, client: client) }
        try fairUse.take(.export, client: client)  // no budget set: never limited
        try fairUse.take(.search, client: [192, 0, 2, 5])
        clock.withLock { $0 = 29.5 }
        #expect(throws: FairUseError.rateLimited(.search, retryAfter: 1)) { try fairUse.take(.search, client: client) }
        clock.withLock { $0 = 30 }
        try fairUse.take(.search, client: client)
    }

    @Test func settingsAreParsed() throws {
        let configuration = try AppConfiguration(environment: [
            "TESSERA_SEARCH_RATE": "5/s", "TESSERA_IMPORT_RATE": "off", "TESSERA_TRUSTED_PROXIES": "::1, 10.0.0.0/8",
        ])
        #expect(configuration.fairUse.rates[.search] == Rate(count: 5, period: 1))
        #expect(configuration.fairUse.rates[.importing] == nil)
        #expect(configuration.fairUse.rates[.export] == Rate(count: 10, period: 60))
        #expect(configuration.fairUse.trustedProxies.count == 2)
        #expect(configuration.fairUse.trustedProxies[1].contains(try #require(IPAddress("10.200.3.4"))))
        #expect(!configuration.fairUse.trustedProxies[1].contains(try #require(IPAddress("11.0.0.1"))))
        #expect(throws: ConfigurationError.self) { try AppConfiguration(environment: ["TESSERA_SEARCH_RATE": "lots"]) }
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration(environment: ["TESSERA_TRUSTED_PROXIES": "10.0.0.0/33"])
        }
    }
}
