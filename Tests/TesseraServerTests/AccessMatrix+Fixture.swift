import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import TesseraCore
import TesseraGalleries
import TesseraServer
import TesseraTestSupport
import Testing

extension AccessMatrix {
    /// One request as a row sends it; `stream` reads only the status and headers, then closes.
    struct Probe: Sendable {
        var method: HTTPMethod
        var uri: String
        var json: String? = nil
        var upload: [UInt8]? = nil
        var stream = false
        /// Asked by the owner after a refusal: what a refused change must have left (a 2xx whose body holds
        /// `contains`).
        var unchanged: (uri: String, contains: String)? = nil
    }

    struct Answer: Sendable {
        let status: Int
        let body: String

        /// The error answer's `code`, for the failure message.
        var code: String {
            struct Envelope: Decodable { struct Info: Decodable { let code: String }; let error: Info }
            return (try? JSONDecoder().decode(Envelope.self, from: Data(body.utf8)).error.code) ?? ""
        }
    }

    /// Requests over a real connection, several at once (one pool), streams on a client of their own.
    struct Wire: Sendable {
        let http: HTTPClient
        let port: Int

        /// Redirects are answers to check, not to follow.
        static let configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)

        func send(_ probe: Probe, headers: [(String, String)]) async throws -> Answer {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(probe.uri)")
            request.method = probe.method
            request.headers.add(contentsOf: headers)
            if let json = probe.json {
                request.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: json))
            } else if let upload = probe.upload {
                let (fields, body) = GalleriesAPITests.multipart(upload, fileName: "cell.jpg")
                for field in fields { request.headers.replaceOrAdd(name: field.name.rawName, value: field.value) }
                request.body = .bytes(body)
            }
            guard probe.stream else {
                let response = try await http.execute(request, timeout: .seconds(60))
                let body = try await response.body.collect(upTo: 64 << 20)
                return Answer(status: Int(response.status.code), body: String(buffer: body))
            }
            let own = HTTPClient(eventLoopGroupProvider: .singleton, configuration: Self.configuration)
            do {
                let response = try await own.execute(request, timeout: .seconds(60))
                let status = Int(response.status.code)
                // An error ends its body at once; an open stream is left unread and closed with its client.
                let body =
                    status == 200 || probe.method == .HEAD
                    ? "" : String(buffer: try await response.body.collect(upTo: 1 << 20))
                try await own.shutdown()
                return Answer(status: status, body: body)
            } catch {
                try? await own.shutdown()
                throw error
            }
        }
    }

    /// What every row's request names: a gallery with an item, the owner's tokens, links of every kind, a
    /// search result and its preview; and each caller's credentials.
    struct Fixture: Sendable {
        static let password = "gallery key 77"
        static let users: [(name: String, password: String, admin: Bool)] = [
            ("ada", "admin pass 1", true), ("olga", "owner pass 1", false), ("ed", "editor pass 1", false),
            ("vi", "viewer pass 1", false), ("sam", "stranger pass 1", false), ("pat", "fourth pass 1", false),
        ]
        static let accountOf: [Caller: String] = [
            .owner: "olga", .editor: "ed", .viewer: "vi", .stranger: "sam", .admin: "ada",
        ]
        static let serverToken = "the-server-token-for-the-access-matrix"

        let mode: Mode
        let wire: Wire
        var cookies: [Caller: String] = [:]
        var bearers: [Caller: String] = [.wrong: "tsr_" + String(repeating: "w", count: 43)]
        /// Each visitor's link; everyone else uses the `view` one. Without accounts, a slug of the right shape.
        var slugs: [Caller: String] = [:]
        var gallery = ""
        var item = ""
        var storedThumbnail = ""
        var storedPreview = ""
        var searchItem = ""
        var searchThumbnail = ""
        var media = ""
        var appVersion = ""

        func slug(_ caller: Caller) -> String {
            slugs[caller] ?? slugs[.view] ?? String(repeating: "A", count: 22)
        }

        /// The caller's headers: a browser on the app's own page, with its cookie, token or link password.
        func headers(_ caller: Caller) -> [(String, String)] {
            var headers = [("Sec-Fetch-Site", "same-origin")]
            if let cookie = cookies[caller] { headers.append(("Cookie", cookie)) }
            if let bearer = bearers[caller] { headers.append(("Authorization", "Bearer \(bearer)")) }
            if caller == .passwordGiven { headers.append(("X-Tessera-Link-Password", Self.password)) }
            return headers
        }

        /// The one who may do everything in this mode: the owner, the server's token, or anyone.
        var principal: Caller {
            switch mode {
            case .accounts: .owner
            case .token: .token
            case .local: .none
            }
        }

        /// A request as the principal that must succeed; its body.
        @discardableResult
        func must(_ probe: Probe) async throws -> String {
            let answer = try await wire.send(probe, headers: headers(principal))
            try #require((200..<300).contains(answer.status), "\(probe.method) \(probe.uri): \(answer.body)")
            return answer.body
        }

        func decode<T: Decodable>(_ type: T.Type, _ probe: Probe) async throws -> T {
            try JSONDecoder().decode(T.self, from: Data(try await must(probe).utf8))
        }

        /// A fresh session of one account (for the rows that end sessions).
        func signIn(_ caller: Caller) async throws -> String {
            let name = try #require(Self.accountOf[caller])
            let password = try #require(Self.users.first { $0.name == name }?.password)
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(wire.port)/api/session")
            request.method = .POST
            request.headers.add(contentsOf: [("Sec-Fetch-Site", "same-origin"), ("Content-Type", "application/json")])
            request.body = .bytes(ByteBuffer(string: #"{"name":"\#(name)","password":"\#(password)"}"#))
            let response = try await wire.http.execute(request, timeout: .seconds(30))
            try #require(response.status == .ok, "signing in as \(name)")
            let setCookie = try #require(response.headers.first(name: "Set-Cookie"))
            return String(try #require(setCookie.split(separator: ";").first))
        }

        struct Made: Decodable { let id: String }
        struct Token: Decodable {
            let id: String
            let secret: String
        }

        /// A new gallery of the principal's, shared with the editor and the viewer.
        func newGallery(deleted: Bool = false) async throws -> String {
            let id = try await decode(
                Made.self, Probe(method: .POST, uri: "/api/galleries", json: #"{"name":"A cell"}"#)
            ).id
            if mode == .accounts {
                for (name, role) in [("ed", "editor"), ("vi", "viewer")] {
                    try await must(
                        Probe(
                            method: .POST, uri: "/api/galleries/\(id)/members",
                            json: #"{"name":"\#(name)","role":"\#(role)"}"#))
                }
            }
            if deleted { try await must(Probe(method: .DELETE, uri: "/api/galleries/\(id)")) }
            return id
        }

        /// A new item in the fixture's gallery, with bytes of its own.
        func newItem() async throws -> String {
            try await decode(
                Made.self,
                Probe(
                    method: .POST, uri: "/api/galleries/\(gallery)/items",
                    upload: Links.jpeg("cell \(UUID().uuidString)"))
            ).id
        }
    }
}

extension AccessMatrix.Fixture {
    /// Builds the fixture on a running server: in accounts mode every account signs in, the owner makes the
    /// gallery, its members, both tokens and every kind of link (one revoked, one soon expired: `clock` then
    /// moves past it).
    static func make(_ mode: AccessMatrix.Mode, wire: AccessMatrix.Wire, app: AppEnvironment, clock: TestClock)
        async throws -> Self
    {
        typealias Probe = AccessMatrix.Probe
        var fixture = Self(mode: mode, wire: wire)
        fixture.appVersion = app.webAssets.version
        if mode == .token { fixture.bearers[.token] = serverToken }
        if mode == .accounts {
            for caller in accountOf.keys { fixture.cookies[caller] = try await fixture.signIn(caller) }
        }
        fixture.gallery = try await fixture.newGallery()
        let item = try await fixture.decode(
            GalleryItem.self,
            Probe(method: .POST, uri: "/api/galleries/\(fixture.gallery)/items", upload: Links.jpeg("the fixture")))
        fixture.item = item.id.rawValue
        fixture.storedThumbnail = item.image.thumbnail.url
        fixture.storedPreview = item.image.preview.url

        let search = try await fixture.decode(
            SearchResponse.self, Probe(method: .GET, uri: "/api/search?q=fox&scope=pixabay"))
        let result = try #require(search.sections.first?.items.first)
        fixture.searchItem = "/api/items/\(result.id.source.rawValue)/\(encoded(result.id.nativeID))"
        fixture.searchThumbnail = try #require(result.thumbnail?.url)
        let music = try await fixture.decode(
            SearchResponse.self, Probe(method: .GET, uri: "/api/search?q=fox&scope=music"))
        fixture.media = try #require(music.sections.first?.items.first?.mediaPreview?.url)
        // The stored copy in the memory cache, for the row that asks for it again.
        try await fixture.must(Probe(method: .GET, uri: fixture.storedThumbnail))

        guard mode == .accounts else { return fixture }
        for (scope, caller) in [("read", AccessMatrix.Caller.read), ("write", .full)] {
            let token = try await fixture.decode(
                Token.self, Probe(method: .POST, uri: "/api/tokens", json: #"{"name":"\#(scope)","scope":"\#(scope)"}"#)
            )
            fixture.bearers[caller] = token.secret
        }
        let soon = ISO8601DateFormatter().string(from: clock.now().addingTimeInterval(3600))
        let links: [(AccessMatrix.Caller, String)] = [
            (.view, #"{"kind":"view"}"#), (.passwordGiven, #"{"kind":"view","password":"\#(password)"}"#),
            (.expired, #"{"kind":"view","expiresAt":"\#(soon)"}"#), (.revoked, #"{"kind":"view"}"#),
            (.drop, #"{"kind":"drop","perHour":1000}"#),
        ]
        for (caller, body) in links {
            let link = try await fixture.decode(
                Links.Link.self, Probe(method: .POST, uri: "/api/galleries/\(fixture.gallery)/links", json: body))
            fixture.slugs[caller] = link.slug
            if caller == .revoked { try await fixture.must(Probe(method: .DELETE, uri: "/api/links/\(link.id)")) }
        }
        fixture.slugs[.passwordMissing] = fixture.slugs[.passwordGiven]
        clock.advance(by: 2 * 3600)
        return fixture
    }
}
