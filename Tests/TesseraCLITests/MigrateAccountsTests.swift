import AsyncHTTPClient
import Foundation
import TesseraPostgres
import TesseraTestSupport
import Testing

/// `tessera migrate` with accounts: the users, their tokens, who owns and shares each gallery, and its public links
/// move too, so a server on PostgreSQL with `TESSERA_AUTH=accounts` lets the same people in with the same
/// passwords, and links given out keep working.
extension MigrateCommandTests {
    static func accountsEnvironment(_ folders: Folders) -> [String: String] {
        ["TESSERA_DATA": folders.data.path, "TESSERA_BCRYPT_COST": "4", "TESSERA_SAMPLES": "none"]
    }

    static func addUser(_ name: String, admin: Bool = false, _ environment: [String: String]) async throws {
        let added = try await CLIProcess.run(
            ["user", "add", name] + (admin ? ["--admin"] : []), environment: environment, input: "\(name)-password\n")
        #expect(added.status == 0, "\(added.stderr)")
    }

    @Test(.timeLimit(.minutes(5)))
    func accountsTokensOwnersAndMembersMoveAndSignInWorks() async throws {
        let server = try ServePostgresTests.server()
        let folders = Folders()
        defer { try? FileManager.default.removeItem(at: folders.base) }
        let local = Self.accountsEnvironment(folders)
        // Given two accounts, a gallery of bob's shared with ada as a viewer, and a token of bob's, made on SQLite.
        // (Bob is not the admin: a gallery that lost its owner would go to ada when the server starts.)
        try await Self.addUser("ada", admin: true, local)
        try await Self.addUser("bob", local)
        let (gallery, token, slug) = try await UserRemoveCommandTests.serving(local) { api in
            let bob = try await api.signIn("bob")
            let made = try await api.call("POST", "/api/galleries", #"{"name":"Bob's, shared"}"#, cookie: bob)
            let id = String(try #require(made.firstMatch(of: /"id":"(g_[a-z0-9]+)"/)?.output.1))
            let member = try await api.call(
                "POST", "/api/galleries/\(id)/members", #"{"name":"ada","role":"viewer"}"#, cookie: bob)
            #expect(member.contains("ada"), "\(member)")
            let minted = try await api.call("POST", "/api/tokens", #"{"name":"cli","scope":"read"}"#, cookie: bob)
            let secret = String(try #require(minted.firstMatch(of: /"secret":"(tsr_[A-Za-z0-9_-]+)"/)?.output.1))
            let link = try await api.call("POST", "/api/galleries/\(id)/links", #"{"kind":"view"}"#, cookie: bob)
            let slug = String(try #require(link.firstMatch(of: /"url":"\/s\/([A-Za-z0-9_-]{22})"/)?.output.1))
            return (id, secret, slug)
        }

        try await TestPostgres.withFreshDatabase(on: server) { url in
            // When it is migrated, twice (the second time with an account made on PostgreSQL meanwhile).
            let first = try await migrate(folders, url)
            #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
            for what in ["accounts", "access tokens", "galleries with an owner", "gallery members", "gallery links"] {
                let expected = what == "accounts" ? [2, 2] : [1, 1]
                #expect(counts(what, in: first.stdout) == expected, "\(what): \(first.stdout)")
            }
            let shared = folders.base.appendingPathComponent("shared-data")
            var remote = local
            remote["TESSERA_DATA"] = shared.path
            remote["TESSERA_DATABASE_URL"] = url.urlText
            try await Self.addUser("carol", remote)
            let second = try await migrate(folders, url)
            #expect(second.status == 0, "\(second.stdout)\n\(second.stderr)")
            #expect(counts("accounts", in: second.stdout) == [2, 2], "\(second.stdout)")
            #expect(second.stdout.contains("accounts not in this data folder, left as they are: carol"))

            // Then a server on PostgreSQL lets bob in with his password and his token, shows ada the gallery as
            // shared with her as a viewer, and answers carol as if it did not exist.
            remote["TESSERA_MEDIA"] = folders.data.appendingPathComponent("gallery-images").path
            try await UserRemoveCommandTests.serving(remote) { api in
                let bob = try await api.signIn("bob")
                let bobs = try await api.call("GET", "/api/galleries", cookie: bob)
                #expect(bobs.contains(gallery) && bobs.contains(#""role":"owner""#), "\(bobs)")
                let ada = try await api.signIn("ada")
                let adas = try await api.call("GET", "/api/galleries", cookie: ada)
                #expect(adas.contains(gallery) && adas.contains(#""owner":"bob""#), "\(adas)")
                #expect(adas.contains(#""role":"viewer""#), "\(adas)")
                let carol = try await api.signIn("carol")
                let hidden = try await api.call("GET", "/api/galleries/\(gallery)", cookie: carol)
                #expect(hidden.contains("gallery_not_found"), "\(hidden)")
                #expect(!(try await api.call("GET", "/api/galleries", cookie: carol)).contains(gallery))

                let (status, body) = try await Self.withToken(token, api.base + "/api/galleries/\(gallery)", api.client)
                #expect(status == 200 && body.contains("Bob's, shared"), "\(status) \(body)")
                let (wrong, _) = try await Self.withToken("tsr_not-a-token", api.base + "/api/galleries", api.client)
                #expect(wrong == 401)
                // The public link given out before the move still opens the gallery, without an account.
                let visited = try await api.call("GET", "/api/shared/\(slug)", cookie: "")
                #expect(visited.contains("Bob's, shared") && visited.contains(#""kind":"view""#), "\(visited)")
            }
        }
    }

    @Test func aNameTakenByAnotherAccountInPostgreSQLIsRefused() async throws {
        let server = try ServePostgresTests.server()
        let folders = Folders()
        defer { try? FileManager.default.removeItem(at: folders.base) }
        let local = Self.accountsEnvironment(folders)
        try await Self.addUser("ada", admin: true, local)
        let made = try await CLIProcess.run(["gallery", "create", "Kept"], environment: local)
        #expect(made.status == 0, "\(made.stderr)")
        try await TestPostgres.withFreshDatabase(on: server) { url in
            var remote = local
            remote["TESSERA_DATA"] = folders.base.appendingPathComponent("shared-data").path
            remote["TESSERA_DATABASE_URL"] = url.urlText
            try await Self.addUser("ada", remote)
            let refused = try await migrate(folders, url)
            #expect(refused.status == 2, "\(refused.stdout)\n\(refused.stderr)")
            #expect(refused.stderr.contains("already has other accounts named ada"), "\(refused.stderr)")
            #expect(try await Self.rowCounts(url) == [0, 0, 0], "nothing copied")
        }
    }

    /// A GET with `Authorization: Bearer`, as a program sends it: the status and body.
    static func withToken(_ token: String, _ url: String, _ client: HTTPClient) async throws -> (UInt, String) {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (response.status.code, String(decoding: bytes.readableBytesView, as: UTF8.self))
    }
}
