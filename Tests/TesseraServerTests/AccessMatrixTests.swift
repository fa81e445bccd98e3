import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOHTTP1
import TesseraServer
import TesseraTestSupport
import Testing

/// Every operation of docs/openapi.yaml, asked by every kind of caller in each auth mode, answers what
/// `AccessMatrix.rows` says (docs/accounts.md, "Who may do what"). One server per mode, real HTTP, a fixture
/// of real ids; changes that would spoil the fixture get a fresh target per cell, and a refused change is
/// checked to have changed nothing.
@Suite("Who may do what")
struct AccessMatrixTests {
    typealias Caller = AccessMatrix.Caller
    typealias Mode = AccessMatrix.Mode
    typealias Probe = AccessMatrix.Probe

    @Test func everyDocumentedOperationHasARowAndEveryRowAnOperation() throws {
        let documented = Set(OpenAPIDocumentTests.operations(try OpenAPIDocumentTests.document()).keys)
        let tabled = Set(AccessMatrix.rows.map(\.operation))
        #expect(documented.subtracting(tabled).isEmpty, "operations without a row: \(documented.subtracting(tabled))")
        #expect(tabled.subtracting(documented).isEmpty, "rows of no operation: \(tabled.subtracting(documented))")
        #expect(Set(AccessMatrix.rows.map(\.name)).count == AccessMatrix.rows.count, "each row once")
        for row in AccessMatrix.rows {
            for mode in Mode.allCases {
                #expect(row.cells[mode]?.count == mode.callers.count, "\(row.name): one cell per caller in \(mode)")
            }
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: Mode.allCases)
    func everyCallerGetsWhatTheTableSays(mode: Mode) async throws {
        try await Self.withServer(mode) { fixture in
            // Rows that end sessions go last, one at a time; the others a few at once.
            let last: Set<String> = ["DELETE /api/session", "DELETE /api/sessions"]
            let first = AccessMatrix.rows.filter { !last.contains($0.name) }
            var mismatches: [String] = []
            try await withThrowingTaskGroup(of: [String].self) { group in
                var pending = first[...]
                for _ in 0..<4 {
                    guard let row = pending.popFirst() else { break }
                    group.addTask { try await Self.check(row, fixture) }
                }
                while let found = try await group.next() {
                    mismatches += found
                    if let row = pending.popFirst() { group.addTask { try await Self.check(row, fixture) } }
                }
            }
            for row in AccessMatrix.rows where last.contains(row.name) {
                mismatches += try await Self.check(row, fixture)
            }
            #expect(
                mismatches.isEmpty,
                "\(mode) mode, \(mismatches.count) cells differ:\n\(mismatches.joined(separator: "\n"))")
        }
    }

    /// One row: each caller in turn; the cells that differ, as lines for the failure message.
    static func check(_ row: AccessMatrix.Row, _ fixture: AccessMatrix.Fixture) async throws -> [String] {
        var mismatches: [String] = []
        let cells = try #require(row.cells[fixture.mode])
        for (caller, expected) in zip(fixture.mode.callers, cells) {
            var probe = try await Self.probe(row, fixture, caller)
            var headers = fixture.headers(caller)
            if caller.hasSession && row.name.hasPrefix("DELETE /api/session") {
                headers = headers.filter { $0.0 != "Cookie" } + [("Cookie", try await fixture.signIn(caller))]
            }
            let answer: AccessMatrix.Answer
            do {
                answer = try await fixture.wire.send(probe, headers: headers)
            } catch {
                mismatches.append("  \(row.name) as \(caller.rawValue): \(error), not \(expected)")
                continue
            }
            let matches =
                expected.hasSuffix("xx")
                ? String(answer.status).first == expected.first : String(answer.status) == expected
            if !matches {
                mismatches.append(
                    "  \(row.name) as \(caller.rawValue): \(answer.status) \(answer.code), not \(expected)")
            }
            if !(200..<300).contains(answer.status), let unchanged = probe.unchanged {
                probe = Probe(method: .GET, uri: unchanged.uri)
                let body = try await fixture.must(probe)
                if !body.contains(unchanged.contains) {
                    mismatches.append("  \(row.name) as \(caller.rawValue): refused, yet changed \(unchanged.uri)")
                }
            }
        }
        return mismatches
    }

    /// The request of `row` for `caller`: the fixture's ids, or a fresh target for a change that would
    /// spoil them.
    static func probe(_ row: AccessMatrix.Row, _ f: AccessMatrix.Fixture, _ caller: Caller) async throws -> Probe {
        let gallery = "/api/galleries/\(f.gallery)"
        let shared = "/api/shared/\(f.slug(caller))"
        switch row.name {
        case "GET /api/health": return Probe(method: .GET, uri: "/api/health")
        case "GET /metrics": return Probe(method: .GET, uri: "/metrics")
        case "GET /login": return Probe(method: .GET, uri: "/login")
        case "GET /app/{}": return Probe(method: .GET, uri: "/app/main.js")
        case "GET /app/{}/{}": return Probe(method: .GET, uri: "/app/\(f.appVersion)/main.js")
        case "GET /app/{}/{}/{}": return Probe(method: .GET, uri: "/app/\(f.appVersion)/galleries/gallery.js")
        case "GET /": return Probe(method: .GET, uri: "/")
        case "GET /search": return Probe(method: .GET, uri: "/search?q=fox")
        case "GET /item/{}/{}": return Probe(method: .GET, uri: "/item/pixabay/1")
        case "GET /galleries": return Probe(method: .GET, uri: "/galleries")
        case "GET /galleries/{}": return Probe(method: .GET, uri: "/galleries/\(f.gallery)")
        case "GET /api/sources": return Probe(method: .GET, uri: "/api/sources")
        case "GET /api/search": return Probe(method: .GET, uri: "/api/search?q=fox&scope=pixabay")
        case "GET /api/search/stream": return Probe(method: .GET, uri: "/api/search/stream?q=fox&scope=pixabay")
        case "GET /api/items/{}/{}": return Probe(method: .GET, uri: f.searchItem)
        case "GET /api/items/galleries": return Probe(method: .GET, uri: "/api/items/galleries?id=pixabay:1")
        case "GET /img/{}/{}/{} [a search result's image]": return Probe(method: .GET, uri: f.searchThumbnail)
        case "GET /media/{}/{} [a search result's preview]": return Probe(method: .GET, uri: f.media)
        case "HEAD /media/{}/{} [a search result's preview]": return Probe(method: .HEAD, uri: f.media)
        case "GET /img/{}/{}/{} [the gallery's stored copy]":
            // Another size than the one the fixture cached, so this one takes the whole way.
            return Probe(method: .GET, uri: f.storedPreview)
        case "HEAD /img/{}/{}/{} [the gallery's stored copy]": return Probe(method: .HEAD, uri: f.storedThumbnail)
        case "GET /img/{}/{}/{} [the stored copy, cached by the owner's request]":
            return Probe(method: .GET, uri: f.storedThumbnail)
        case "GET /api/me": return Probe(method: .GET, uri: "/api/me")
        case "POST /api/session [signing in as another account]":
            return Probe(method: .POST, uri: "/api/session", json: #"{"name":"pat","password":"fourth pass 1"}"#)
        case "DELETE /api/session": return Probe(method: .DELETE, uri: "/api/session")
        case "DELETE /api/sessions": return Probe(method: .DELETE, uri: "/api/sessions")
        case "GET /api/tokens": return Probe(method: .GET, uri: "/api/tokens")
        case "POST /api/tokens":
            return Probe(method: .POST, uri: "/api/tokens", json: #"{"name":"cell","scope":"read"}"#)
        case "DELETE /api/tokens/{} [the owner's token]":
            guard f.mode == .accounts else { return Probe(method: .DELETE, uri: "/api/tokens/t_none") }
            let token = try await f.decode(
                AccessMatrix.Fixture.Token.self,
                Probe(method: .POST, uri: "/api/tokens", json: #"{"name":"doomed","scope":"read"}"#))
            return Probe(method: .DELETE, uri: "/api/tokens/\(token.id)", unchanged: ("/api/tokens", token.id))
        case "GET /api/galleries": return Probe(method: .GET, uri: "/api/galleries")
        case "POST /api/galleries": return Probe(method: .POST, uri: "/api/galleries", json: #"{"name":"Mine"}"#)
        case "GET /api/galleries/{}": return Probe(method: .GET, uri: gallery)
        case "PATCH /api/galleries/{} [renaming]":
            return Probe(method: .PATCH, uri: gallery, json: #"{"name":"Renamed by \#(caller.rawValue)"}"#)
        case "DELETE /api/galleries/{} [to Recently deleted]":
            let fresh = try await f.newGallery()
            return Probe(method: .DELETE, uri: "/api/galleries/\(fresh)", unchanged: ("/api/galleries", fresh))
        case "DELETE /api/galleries/{} [for good, from Recently deleted]":
            let fresh = try await f.newGallery(deleted: true)
            return Probe(
                method: .DELETE, uri: "/api/galleries/\(fresh)?permanent=true",
                unchanged: ("/api/galleries?deleted=true", fresh))
        case "POST /api/galleries/{}/restore":
            let fresh = try await f.newGallery(deleted: true)
            return Probe(
                method: .POST, uri: "/api/galleries/\(fresh)/restore", unchanged: ("/api/galleries?deleted=true", fresh)
            )
        case "POST /api/galleries/{}/items [an upload]":
            return Probe(method: .POST, uri: gallery + "/items", upload: Links.jpeg("upload by \(caller.rawValue)"))
        case "DELETE /api/galleries/{}/items/{}":
            let item = try await f.newItem()
            return Probe(method: .DELETE, uri: gallery + "/items/\(item)", unchanged: (gallery, item))
        case "POST /api/galleries/{}/items/{}/move":
            return Probe(method: .POST, uri: gallery + "/items/\(f.item)/move", json: #"{"index":0}"#)
        case "GET /api/galleries/{}/events [status and headers only]":
            return Probe(method: .GET, uri: gallery + "/events", stream: true)
        case "GET /api/galleries/{}/export": return Probe(method: .GET, uri: gallery + "/export")
        case "GET /api/galleries/{}/credits": return Probe(method: .GET, uri: gallery + "/credits")
        case "GET /api/galleries/{}/members": return Probe(method: .GET, uri: gallery + "/members")
        case "POST /api/galleries/{}/members [adding a fourth account]":
            return Probe(method: .POST, uri: gallery + "/members", json: #"{"name":"pat","role":"viewer"}"#)
        case "DELETE /api/galleries/{}/members/{}":
            guard f.mode == .accounts else { return Probe(method: .DELETE, uri: gallery + "/members/pat") }
            let fresh = try await f.newGallery()
            try await f.must(
                Probe(method: .POST, uri: "/api/galleries/\(fresh)/members", json: #"{"name":"pat","role":"viewer"}"#))
            return Probe(
                method: .DELETE, uri: "/api/galleries/\(fresh)/members/pat",
                unchanged: ("/api/galleries/\(fresh)/members", "pat"))
        case "GET /api/galleries/{}/links": return Probe(method: .GET, uri: gallery + "/links")
        case "POST /api/galleries/{}/links":
            return Probe(method: .POST, uri: gallery + "/links", json: #"{"kind":"view"}"#)
        case "DELETE /api/links/{}":
            guard f.mode == .accounts else { return Probe(method: .DELETE, uri: "/api/links/l_none") }
            let link = try await f.decode(
                Links.Link.self, Probe(method: .POST, uri: gallery + "/links", json: #"{"kind":"view"}"#))
            return Probe(method: .DELETE, uri: "/api/links/\(link.id)", unchanged: (gallery + "/links", link.id))
        case "GET /s/{}": return Probe(method: .GET, uri: "/s/\(f.slug(caller))")
        case "GET /s/{}/img/{}/{}/{} [the gallery's stored copy]":
            return Probe(method: .GET, uri: "/s/\(f.slug(caller))" + f.storedThumbnail)
        case "HEAD /s/{}/img/{}/{}/{} [the gallery's stored copy]":
            return Probe(method: .HEAD, uri: "/s/\(f.slug(caller))" + f.storedThumbnail)
        case "GET /s/{}/img/{}/{}/{} [a search result's image]":
            return Probe(method: .GET, uri: "/s/\(f.slug(caller))" + f.searchThumbnail)
        case "GET /api/shared/{}": return Probe(method: .GET, uri: shared)
        case "POST /api/shared/{}/unlock [pw- sends a wrong password]":
            let password = caller == .passwordMissing ? "not the password" : AccessMatrix.Fixture.password
            return Probe(method: .POST, uri: shared + "/unlock", json: #"{"password":"\#(password)"}"#)
        case "GET /api/shared/{}/credits": return Probe(method: .GET, uri: shared + "/credits")
        case "POST /api/shared/{}/items [an upload]":
            return Probe(method: .POST, uri: shared + "/items", upload: Links.jpeg("drop by \(caller.rawValue)"))
        default:
            Issue.record("no request for the row \(row.name)")
            return Probe(method: .GET, uri: "/api/health")
        }
    }

    /// A server in `mode` with stand-ins for the services and, with accounts, the fixture's users; fair-use
    /// budgets off (every caller here is one address); the app's clock the test's.
    static func withServer(_ mode: Mode, _ body: @Sendable (AccessMatrix.Fixture) async throws -> Void) async throws {
        let standIns = try await StandInServer.start(StandInSet().list)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-matrix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var environment = standIns.environment
        environment.merge([
            "TESSERA_DATA": data.path, "TESSERA_PORT": "0", "TESSERA_SAMPLES": "none", "TESSERA_SOURCE_TIMEOUT": "10",
            "TESSERA_SEARCH_RATE": "off", "TESSERA_IMPORT_RATE": "off", "TESSERA_EXPORT_RATE": "off",
            "TESSERA_MAX_STREAMS_PER_CLIENT": "off", "TESSERA_BCRYPT_COST": "4",
        ]) { _, new in new }
        switch mode {
        case .accounts: environment["TESSERA_AUTH"] = "accounts"
        case .token: environment["TESSERA_TOKEN"] = AccessMatrix.Fixture.serverToken
        case .local: environment["TESSERA_AUTH"] = "none"
        }
        var quiet = Logger(label: "tessera-test")
        quiet.logLevel = .critical
        let clock = TestClock()
        let app = try await AppEnvironment.live(
            try AppConfiguration(environment: environment), logger: quiet, now: clock.now)
        if mode == .accounts {
            for user in AccessMatrix.Fixture.users {
                _ = try await app.accounts.add(name: user.name, password: user.password, admin: user.admin)
            }
        }
        do {
            try await buildApplication(app).test(.live) { client in
                let http = HTTPClient(
                    eventLoopGroupProvider: .singleton, configuration: AccessMatrix.Wire.configuration)
                do {
                    let wire = AccessMatrix.Wire(http: http, port: try #require(client.port))
                    try await body(try await AccessMatrix.Fixture.make(mode, wire: wire, app: app, clock: clock))
                    try await http.shutdown()
                } catch {
                    try? await http.shutdown()
                    throw error
                }
            }
        } catch {
            await standIns.stop()
            throw error
        }
        await standIns.stop()
    }
}
