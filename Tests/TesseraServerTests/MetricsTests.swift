import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TesseraCore
import TesseraGalleries
import TesseraImageProxy
import TesseraTestSupport
import Testing

@testable import TesseraServer

/// `/metrics` scraped before and after real traffic over HTTP: every counter moves by exactly what the
/// traffic did. Each app has its own registry, so these run beside other tests in one process.
@Suite("Metrics")
struct MetricsTests {
    static func scrape(_ client: any TestClientProtocol, headers: HTTPFields = [:]) async throws -> PrometheusText {
        let response = try await client.execute(uri: "/metrics", method: .get, headers: headers)
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
        return try PrometheusText(response.text)
    }

    @Test(.timeLimit(.minutes(2))) func galleriesAndTheDatabaseAndHTTPAreCounted() async throws {
        let origin = try await ImageOrigin.start()
        origin.serve("/photo.jpg", StandInImage.jpeg, contentType: "image/jpeg")
        try await withTessera(StandInSet().list) { client, _ in
            let before = try await Self.scrape(client)
            let gallery = try await GalleriesAPITests.create(client)
            let renamed = try await client.execute(
                uri: "/api/galleries/\(gallery.id)", method: .patch, body: ByteBuffer(string: #"{"name":"Dunes"}"#))
            #expect(renamed.status == .ok)
            // Loopback is a private address: the fetcher refuses it.
            let refused = try await GalleriesAPITests.add(
                client, gallery.id, json: #"{"url":"\#(origin.url("/photo.jpg"))"}"#)
            #expect(refused.status == .forbidden)
            for _ in 0..<3 { #expect(try await client.execute(uri: "/api/health", method: .get).status == .ok) }
            let unknown = try await client.execute(uri: "/no/such/page", method: .get)
            #expect(unknown.status == .notFound)
            let after = try await Self.scrape(client)

            #expect(after.delta(before, "tessera_gallery_changes_total", ["kind": "created"]) == 1)
            #expect(after.delta(before, "tessera_gallery_changes_total", ["kind": "renamed"]) == 1)
            #expect(after.delta(before, "tessera_gallery_changes_total", ["kind": "added"]) == 0)
            #expect(after.delta(before, "tessera_image_fetches_total", ["result": "refused_address"]) == 1)
            #expect(after.delta(before, "tessera_image_fetches_total", ["result": "ok"]) == 0)
            #expect(origin.totalHits == 0)
            // The create and the rename: two write transactions, one after the other, none waiting.
            let sqlite = ["engine": "sqlite"]
            let committed = sqlite.merging(["result": "committed"]) { $1 }
            #expect(after.delta(before, "tessera_db_write_transactions_total", committed) == 2)
            #expect(after.delta(before, "tessera_db_write_transaction_seconds_count", sqlite) == 2)
            #expect(after.delta(before, "tessera_db_pool_wait_seconds_count", sqlite) == 2)
            #expect(after.delta(before, "tessera_db_pool_waits_total", sqlite) == 0)
            #expect(after.value("tessera_db_pool_in_use", sqlite) == 0)

            let health = ["route": "/api/health", "method": "GET"]
            #expect(after.delta(before, "tessera_http_requests_total", health.merging(["status": "200"]) { $1 }) == 3)
            #expect(after.delta(before, "tessera_http_request_duration_seconds_count", health) == 3)
            let slowest = health.merging(["le": "+Inf"]) { $1 }
            #expect(after.delta(before, "tessera_http_request_duration_seconds_bucket", slowest) == 3)
            let galleries = ["route": "/api/galleries", "method": "POST", "status": "201"]
            #expect(after.delta(before, "tessera_http_requests_total", galleries) == 1)
            let items = ["route": "/api/galleries/{id}/items", "method": "POST", "status": "403"]
            #expect(after.delta(before, "tessera_http_requests_total", items) == 1)
            let notFound = ["route": "unmatched", "method": "GET", "status": "404"]
            #expect(after.delta(before, "tessera_http_requests_total", notFound) == 1)
            // The first scrape is counted once it has answered, so the second one shows it.
            let scrapes = ["route": "/metrics", "method": "GET", "status": "200"]
            #expect(after.delta(before, "tessera_http_requests_total", scrapes) == 1)
        }
    }

    /// On PostgreSQL the galleries' transactions and the pool's checkouts are counted under
    /// `engine="postgresql"`, and SQLite (which keeps only the library index then) sees none of them.
    @Test(.timeLimit(.minutes(2))) func thePostgreSQLPoolIsCounted() async throws {
        try await Engine.postgres.withEnvironment { environment in
            try await withTessera(StandInSet().list, extraEnvironment: environment) { client, _ in
                let before = try await Self.scrape(client)
                let gallery = try await GalleriesAPITests.create(client)
                let renamed = try await client.execute(
                    uri: "/api/galleries/\(gallery.id)", method: .patch, body: ByteBuffer(string: #"{"name":"Dunes"}"#))
                #expect(renamed.status == .ok)
                #expect(try await client.execute(uri: "/api/galleries", method: .get).status == .ok)
                let after = try await Self.scrape(client)

                let postgres = ["engine": "postgresql"]
                let committed = ["result": "committed"]
                #expect(
                    after.delta(
                        before, "tessera_db_write_transactions_total", postgres.merging(committed) { $1 }) == 2)
                #expect(after.delta(before, "tessera_db_write_transaction_seconds_count", postgres) == 2)
                // The two writes and the list's reads: each a checkout of its own.
                #expect(after.delta(before, "tessera_db_pool_wait_seconds_count", postgres) >= 3)
                #expect(after.value("tessera_db_pool_in_use", postgres) == 0)
                let sqlite = ["engine": "sqlite", "result": "committed"]
                #expect(after.delta(before, "tessera_db_write_transactions_total", sqlite) == 0)
            }
        }
    }

    @Test(.timeLimit(.minutes(2))) func sourcesAndImagesAreCounted() async throws {
        let standIns = StandInSet()
        standIns.flickr.state.behavior = .serverError
        try await withTessera(standIns.list) { client, _ in
            let before = try await Self.scrape(client)
            let first = try await client.execute(uri: "/api/search?q=fox&scope=pixabay", method: .get)
                .json(SearchResponse.self)
            let again = try await client.execute(uri: "/api/search?q=fox&scope=pixabay", method: .get)
            #expect(again.status == .ok)
            let failed = try await client.execute(uri: "/api/search?q=fox&scope=flickr", method: .get)
                .json(SearchResponse.self)
            #expect(failed.sections.first?.error?.code == "service_error")

            // A thumbnail: made once (memory and disk miss), then answered twice from memory on the fast path.
            let url = try #require(first.sections.first?.items.first?.thumbnail?.url)
            let made = try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"])
            #expect(made.status == .ok)
            let hit = try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"])
            #expect(hit.status == .ok)
            let etag = try #require(made.headers[.eTag])
            let notModified = try await client.execute(
                uri: url, method: .get, headers: [.accept: "image/jpeg", .ifNoneMatch: etag])
            #expect(notModified.status == .notModified)
            let after = try await Self.scrape(client)

            let pixabay = ["source": "pixabay"]
            #expect(after.delta(before, "tessera_source_requests_total", pixabay) == 2)
            #expect(after.delta(before, "tessera_source_request_duration_seconds_count", pixabay) == 2)
            #expect(after.delta(before, "tessera_source_response_cache_misses_total", pixabay) == 1)
            #expect(after.delta(before, "tessera_source_response_cache_hits_total", pixabay) == 1)
            let sent = "tessera_source_http_requests_total"
            let errors = "tessera_source_errors_total"
            #expect(after.delta(before, sent, ["source": "pixabay", "status": "200"]) == 1)
            #expect(after.delta(before, errors, ["source": "pixabay", "code": "service_error"]) == 0)
            let flickr = ["source": "flickr"]
            #expect(after.delta(before, "tessera_source_requests_total", flickr) == 1)
            #expect(after.delta(before, errors, ["source": "flickr", "code": "service_error"]) == 1)
            #expect(after.delta(before, sent, ["source": "flickr", "status": "500"]) == 1)
            #expect(after.delta(before, "tessera_source_response_cache_hits_total", flickr) == 0)
            #expect(after.delta(before, "tessera_source_requests_total", ["source": "openverse"]) == 0)

            #expect(after.delta(before, "tessera_image_cache_misses_total", ["cache": "memory"]) == 1)
            #expect(after.delta(before, "tessera_image_cache_hits_total", ["cache": "memory"]) == 2)
            #expect(after.delta(before, "tessera_image_cache_misses_total", ["cache": "disk"]) == 1)
            #expect(after.delta(before, "tessera_image_cache_hits_total", ["cache": "disk"]) == 0)
            #expect(after.value("tessera_image_cache_bytes", ["cache": "memory"]) > Double(made.body.readableBytes))
            #expect(after.delta(before, "tessera_image_thumbnails_total", ["variant": "thumb"]) == 1)
            #expect(after.delta(before, "tessera_image_thumbnail_duration_seconds_count", ["variant": "thumb"]) == 1)
            #expect(after.delta(before, "tessera_image_thumbnails_total", ["variant": "preview"]) == 0)
            #expect(after.delta(before, "tessera_image_fetches_total", ["result": "ok"]) == 1)
            #expect(after.delta(before, "tessera_image_fetch_bytes_total") > 0)

            // The router answered the miss; the fast path the hit and the 304: all three are counted.
            let image = ["route": ImagesController<TesseraRequestContext>.path, "method": "GET"]
            #expect(after.delta(before, "tessera_http_requests_total", image.merging(["status": "200"]) { $1 }) == 2)
            #expect(after.delta(before, "tessera_http_requests_total", image.merging(["status": "304"]) { $1 }) == 1)
            #expect(after.delta(before, "tessera_http_request_duration_seconds_count", image) == 1, "fast path untimed")
            let search = ["route": "/api/search", "method": "GET", "status": "200"]
            #expect(after.delta(before, "tessera_http_requests_total", search) == 3)

            // The disk copy is written behind the answer: its size shows once it is there.
            var disk = after
            for _ in 0..<100 where disk.value("tessera_image_cache_bytes", ["cache": "disk"]) == 0 {
                try await Task.sleep(for: .milliseconds(100))
                disk = try await Self.scrape(client)
            }
            #expect(
                disk.value("tessera_image_cache_bytes", ["cache": "disk"])
                    == Double(made.body.readableBytes + DiskImageCache.entryOverhead),
                "the file's bytes, its trailer too")
        }
    }

    @Test(.timeLimit(.minutes(1))) func openEventStreamsAreAGauge() async throws {
        // A stream whose client left is noticed at the next heartbeat: one every half second here.
        try await withTessera(StandInSet().list, extraEnvironment: ["TESSERA_HEARTBEAT": "0.5"]) { client, _ in
            let port = try #require(client.port)
            let gallery = try await GalleriesAPITests.create(client)
            #expect(try await Self.scrape(client).value("tessera_gallery_event_subscribers") == 0)
            let stream = try await EventStream.open(port: port, gallery: gallery.id)
            let other = try await EventStream.open(port: port, gallery: gallery.id)
            #expect(try await stream.next().name == "snapshot")
            #expect(try await other.next().name == "snapshot")
            #expect(try await Self.scrape(client).value("tessera_gallery_event_subscribers") == 2)
            await stream.close()
            var open = try await Self.scrape(client).value("tessera_gallery_event_subscribers")
            for _ in 0..<100 where open != 1 {
                try await Task.sleep(for: .milliseconds(100))
                open = try await Self.scrape(client).value("tessera_gallery_event_subscribers")
            }
            #expect(open == 1)
            await other.close()
        }
    }

    // MARK: - Who may read it

    @Test func withATokenOnlyThisMachineReadsWithoutIt() async throws {
        let token = "metrics-token"
        try await withTessera([], extraEnvironment: ["TESSERA_TOKEN": token]) { client, _ in
            let local = try await client.execute(uri: "/metrics", method: .get)
            #expect(local.status == .ok)
            #expect(local.text.contains("# TYPE tessera_http_requests_total counter"))
            // The rest of the API still needs it from here.
            #expect(try await client.execute(uri: "/api/galleries", method: .get).status == .unauthorized)

            // Through a reverse proxy (on this machine too): like any API request.
            for header in ["X-Forwarded-For", "Forwarded", "X-Real-IP"] {
                let name = try #require(HTTPField.Name(header))
                let proxied = try await client.execute(uri: "/metrics", method: .get, headers: [name: "203.0.113.9"])
                #expect(proxied.status == .unauthorized, "\(header)")
                #expect(try proxied.apiError().code == "unauthorized")
            }
            let forwarded: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.9"]
            var bearer = forwarded
            bearer[.authorization] = "Bearer \(token)"
            #expect(try await client.execute(uri: "/metrics", method: .get, headers: bearer).status == .ok)
            var cookie = forwarded
            cookie[.cookie] = "tessera_token=\(token)"
            #expect(try await client.execute(uri: "/metrics", method: .get, headers: cookie).status == .ok)
            var wrong = forwarded
            wrong[.authorization] = "Bearer nope"
            #expect(try await client.execute(uri: "/metrics", method: .get, headers: wrong).status == .unauthorized)
        }
    }

    @Test func withoutATokenItIsOpenLikeTheAPI() async throws {
        try await withTessera([]) { client, _ in
            let proxied = try await client.execute(
                uri: "/metrics", method: .get, headers: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.9"])
            #expect(proxied.status == .ok)
        }
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.8.9.10", true), ("::1", true), ("::ffff:127.0.0.1", true),
        ("192.0.2.1", false), ("10.0.0.1", false), ("2001:db8::1", false),
    ])
    func onlyLoopbackPeersAreThisMachine(address: String, local: Bool) throws {
        let peer = try SocketAddress(ipAddress: address, port: 40_000)
        #expect(MetricsAccess.isLocal(peer: peer, headers: [:]) == local)
        #expect(!MetricsAccess.isLocal(peer: peer, headers: [HTTPField.Name("Forwarded")!: "for=192.0.2.1"]))
    }
}
