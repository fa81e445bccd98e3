import AsyncHTTPClient
import Foundation
import TesseraTestSupport
import Testing

/// `tessera user remove` and galleries, as processes (docs/accounts.md): a gallery made before accounts goes
/// to the first admin when `tessera serve` starts with accounts; a removed user's galleries go to an admin's
/// Recently deleted and their memberships end, with nothing dropped.
@Suite("tessera user remove hands galleries over, run as processes")
struct UserRemoveCommandTests {
    @Test func aRemovedUsersGalleriesGoToAnAdminsRecentlyDeleted() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-heirs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let environment = ["TESSERA_DATA": base.path, "TESSERA_BCRYPT_COST": "4", "TESSERA_SAMPLES": "none"]
        let old = try await CLIProcess.run(["gallery", "create", "Before accounts"], environment: environment)
        #expect(old.status == 0, "\(old.stderr)")
        for (name, admin) in [("ada", true), ("bob", false)] {
            let added = try await CLIProcess.run(
                ["user", "add", name] + (admin ? ["--admin"] : []), environment: environment,
                input: "\(name)-password\n")
            #expect(added.status == 0, "\(added.stderr)")
        }

        let shared = try await Self.serving(environment) { api in
            let ada = try await api.signIn("ada")
            let bob = try await api.signIn("bob")
            let adas = try await api.call("GET", "/api/galleries", cookie: ada)
            #expect(adas.contains("Before accounts") && adas.contains(#""owner":"ada""#), "adopted at start: \(adas)")
            _ = try await api.call("POST", "/api/galleries", #"{"name":"Bob's trip"}"#, cookie: bob)
            let ours = try await api.call("POST", "/api/galleries", #"{"name":"Ada's, shared"}"#, cookie: ada)
            let id = try #require(ours.firstMatch(of: /"id":"(g_[a-z0-9]+)"/)?.output.1)
            _ = try await api.call(
                "POST", "/api/galleries/\(id)/members", #"{"name":"bob","role":"editor"}"#, cookie: ada)
            #expect(try await api.call("GET", "/api/galleries", cookie: bob).contains("Ada's, shared"))
            return String(id)
        }

        let removed = try await CLIProcess.run(["user", "remove", "bob"], environment: environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(
            removed.stdout
                == "Removed bob, with their sessions and tokens. 1 gallery moved to the Recently deleted of ada.\n")

        try await Self.serving(environment) { api in
            let ada = try await api.signIn("ada")
            let deleted = try await api.call("GET", "/api/galleries?deleted=true", cookie: ada)
            #expect(deleted.contains("Bob's trip") && deleted.contains(#""owner":"ada""#), "\(deleted)")
            let members = try await api.call("GET", "/api/galleries/\(shared)/members", cookie: ada)
            #expect(members == #"{"members":[]}"#, "bob's membership ended")
        }
    }

    /// Runs `body` against `tessera serve --auth accounts` on the data folder, then stops it.
    static func serving<T>(_ environment: [String: String], _ body: (API) async throws -> T) async throws -> T {
        let server = try await ServerProcess.start(["--auth", "accounts"], environment: environment)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let result = try await body(API(client: client, base: "http://127.0.0.1:\(server.port)"))
            try await client.shutdown()
            #expect(await server.stop() == 0)
            return result
        } catch {
            try? await client.shutdown()
            _ = await server.stop()
            throw error
        }
    }

    struct API {
        let client: HTTPClient
        let base: String

        func signIn(_ name: String) async throws -> String {
            let answer = try await UserCommandTests.post(
                client, base + "/api/session", #"{"name":"\#(name)","password":"\#(name)-password"}"#, cookie: nil)
            try #require(answer.status == 200, "\(answer.body)")
            return String(try #require(answer.setCookie?.split(separator: ";").first))
        }

        func call(_ method: String, _ path: String, _ body: String? = nil, cookie: String) async throws -> String {
            var request = HTTPClientRequest(url: base + path)
            request.method = .init(rawValue: method)
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "Sec-Fetch-Site", value: "same-origin")
            request.headers.add(name: "Cookie", value: cookie)
            if let body { request.body = .bytes(Array(body.utf8)) }
            let response = try await client.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            return String(decoding: bytes.readableBytesView, as: UTF8.self)
        }
    }
}
