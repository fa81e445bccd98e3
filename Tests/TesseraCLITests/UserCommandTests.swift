import AsyncHTTPClient
import Foundation
import TesseraTestSupport
import Testing

/// `tessera user …` run as processes with the password on standard input, then the users signing in to a
/// `tessera serve --auth accounts` on the same data folder, and a personal access token used by `--server`.
@Suite("tessera user, run as processes")
struct UserCommandTests {
    static let password = "p4ssword-never-shown"

    func withData(_ body: ([String: String]) async throws -> Void) async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-users-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try await body(["TESSERA_DATA": base.path, "TESSERA_BCRYPT_COST": "4"])
    }

    @Test func addListChangeAndRemoveWithThePasswordOnStandardInput() async throws {
        try await withData { environment in
            let added = try await CLIProcess.run(
                ["user", "add", "Ada", "--admin"], environment: environment, input: Self.password + "\n")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout == "Added ada (admin).\n")
            let bob = try await CLIProcess.run(
                ["user", "add", "bob"], environment: environment, input: "bobs-password\n")
            #expect(bob.status == 0, "\(bob.stderr)")

            let list = try await CLIProcess.run(["user", "list"], environment: environment)
            #expect(list.status == 0)
            let rows = list.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(rows.map { $0.first ?? "" } == ["NAME", "ada", "bob"])
            #expect(rows[1][1] == "yes" && rows[2][1] == "no")

            let changed = try await CLIProcess.run(
                ["user", "passwd", "bob"], environment: environment, input: "another-password\n")
            #expect(changed.status == 0, "\(changed.stderr)")
            let removed = try await CLIProcess.run(["user", "remove", "bob"], environment: environment)
            #expect(removed.status == 0 && removed.stdout.contains("Removed bob"))
            let after = try await CLIProcess.run(["user", "list"], environment: environment)
            #expect(!after.stdout.contains("bob"))
            for result in [added, bob, list, changed, removed, after] {
                #expect(!(result.stdout + result.stderr).contains(Self.password))
            }
        }
    }

    @Test func badInputExitsWith2AndSaysWhy() async throws {
        try await withData { environment in
            _ = try await CLIProcess.run(
                ["user", "add", "ada", "--admin"], environment: environment, input: "long-enough\n")
            let cases: [([String], String?, String)] = [
                (["user", "add", "ada"], "long-enough\n", "already a user named ada"),
                (["user", "add", "carl"], "short\n", "too short"),
                (["user", "add", "no spaces"], "long-enough\n", "not a valid user name"),
                (["user", "add", "dora"], nil, "No password on standard input"),
                (["user", "passwd", "nobody"], "long-enough\n", "no user named nobody"),
                (["user", "remove", "nobody"], nil, "no user named nobody"),
            ]
            for (arguments, input, reason) in cases {
                let result = try await CLIProcess.run(arguments, environment: environment, input: input)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(reason), "\(arguments): \(result.stderr)")
            }
            // The last admin stays while someone else has an account.
            _ = try await CLIProcess.run(["user", "add", "bob"], environment: environment, input: "long-enough\n")
            let last = try await CLIProcess.run(["user", "remove", "ada"], environment: environment)
            #expect(last.status == 2 && last.stderr.contains("last admin"))
        }
    }

    @Test func aUserAddedByTheCommandSignsInAndATokenWorksForServerCommands() async throws {
        try await withData { environment in
            let added = try await CLIProcess.run(
                ["user", "add", "ada"], environment: environment, input: Self.password + "\n")
            #expect(added.status == 0, "\(added.stderr)")
            var serving = environment
            serving["TESSERA_LOG_LEVEL"] = "trace"
            let server = try await ServerProcess.start(["--auth", "accounts"], environment: serving)
            let base = "http://127.0.0.1:\(server.port)"
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                let cookie = try await Self.post(
                    client, base + "/api/session", #"{"name":"ada","password":"\#(Self.password)"}"#, cookie: nil)
                #expect(cookie.status == 200)
                let session = try #require(cookie.setCookie?.split(separator: ";").first)
                let made = try await Self.post(
                    client, base + "/api/tokens", #"{"name":"cli","scope":"write"}"#, cookie: String(session))
                #expect(made.status == 201)
                struct Token: Decodable { let secret: String }
                let secret = try JSONDecoder().decode(Token.self, from: Data(made.body.utf8)).secret

                var remote = environment
                remote["TESSERA_TOKEN"] = secret
                let create = try await CLIProcess.run(
                    ["gallery", "create", "From the CLI", "--server", base], environment: remote)
                #expect(create.status == 0, "\(create.stderr)")
                let list = try await CLIProcess.run(["gallery", "list", "--server", base], environment: remote)
                #expect(list.status == 0 && list.stdout.contains("From the CLI"), "\(list.stderr)")
                remote["TESSERA_TOKEN"] = "tsr_revoked-or-wrong"
                let refused = try await CLIProcess.run(["gallery", "list", "--server", base], environment: remote)
                #expect(refused.status != 0)
            } catch {
                try? await client.shutdown()
                _ = await server.stop()
                throw error
            }
            try await client.shutdown()
            let log = server.child.stderr
            #expect(await server.stop() == 0)
            #expect(!log.isEmpty && !log.contains(Self.password), "the password is never logged")
        }
    }

    struct Answer {
        let status: UInt
        let setCookie: String?
        let body: String
    }

    static func post(_ client: HTTPClient, _ url: String, _ body: String, cookie: String?) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Sec-Fetch-Site", value: "same-origin")
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        request.body = .bytes(Array(body.utf8))
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return Answer(
            status: response.status.code, setCookie: response.headers.first(name: "set-cookie"),
            body: String(decoding: bytes.readableBytesView, as: UTF8.self))
    }
}
