import AsyncHTTPClient
import Foundation
import Logging
import PostgresNIO
import TesseraGalleries
import TesseraPostgres
import TesseraTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `tessera serve` with `TESSERA_DATABASE_URL`, run as a process against the tests' PostgreSQL cluster: every
/// way the database can be wrong ends start-up at once with one sentence and a non-zero status, never a crash
/// or a hang, and the password appears nowhere.
@Suite("tessera serve on PostgreSQL, run as a process")
struct ServePostgresTests {
    static func server() throws -> PostgresURL {
        guard let server = try TestPostgres.server() else {
            try Test.cancel(Comment(rawValue: TestPostgres.skipMessage))
        }
        return server
    }

    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    /// The signed image links in a search of the sample photos, once the server has indexed them.
    static func imageLinks(_ api: TesseraAPI) async throws -> Set<String> {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let answer = try await api.send("GET", "/api/search?q=tabby&scope=local")
            let links = answer.text.matches(of: #/"(/img/[^"]+)"/#).map { String($0.output.1) }
            if answer.status == 200, !links.isEmpty { return Set(links) }
            try await Task.sleep(for: .milliseconds(200))
        }
        return []
    }

    /// The URL's text, password and all, as an operator writes it.
    static func text(_ url: PostgresURL, password: String? = nil, port: Int? = nil, query: String? = nil) -> String {
        let secret = (password ?? url.password).map { ":\($0)" } ?? ""
        return "postgres://\(url.user)\(secret)@\(url.host):\(port ?? url.port)/\(url.database)"
            + "?\(query ?? "sslmode=\(url.sslMode.rawValue)")"
    }

    func serve(_ url: String, flag: Bool = false) async throws -> CLIProcess.Result {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-pg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let arguments = ["serve", "--port", "0"] + (flag ? ["--database-url", url] : [])
        var environment = ["TESSERA_DATA": data.path, "TESSERA_LOG_LEVEL": "trace"]
        if !flag { environment["TESSERA_DATABASE_URL"] = url }
        return try await CLIProcess.run(arguments, environment: environment)
    }

    func expectRefused(_ result: CLIProcess.Result, status: Int32, saying reason: String, password: String?) {
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(!result.stdout.contains("running on"), "\(result.stdout)")
        if let password {
            #expect(!result.stderr.contains(password) && !result.stdout.contains(password))
        }
    }

    @Test func aMalformedURLIsBadInput() async throws {
        let result = try await serve("postgres://app:hunter2-secret@db.example/x?sslmode=sometimes", flag: true)
        expectRefused(
            result, status: 2, saying: "TESSERA_DATABASE_URL is not a PostgreSQL URL: sslmode must be one of",
            password: "hunter2-secret")
    }

    @Test func aPortNobodyListensOnIsUnreachable() async throws {
        let server = try Self.server()
        let port = try LoopbackSocket.freePort()
        let result = try await serve(Self.text(server, port: port))
        expectRefused(result, status: 1, saying: "could not be reached", password: server.password)
    }

    /// The bound is the URL's connect_timeout (postgres-nio counts the handshake in it; our own deadline, twice
    /// as long, is the backstop); the time limit only keeps a hang from stalling the run.
    @Test(.timeLimit(.minutes(1)))
    func aServerThatNeverAnswersEndsStartWithinTheConnectTimeout() async throws {
        let server = try Self.server()
        // Listening, so connections are made, but nothing ever accepts or answers them.
        let silent = try LoopbackSocket()
        defer { silent.close() }
        #expect(listen(silent.descriptor, 16) == 0)
        let result = try await serve(Self.text(server, port: silent.port, query: "sslmode=disable&connect_timeout=1"))
        expectRefused(result, status: 1, saying: "could not be reached", password: server.password)
    }

    @Test func aWrongPasswordIsRefusedCredentials() async throws {
        let server = try Self.server()
        let result = try await serve(Self.text(server, password: "not-the-password-42"))
        expectRefused(result, status: 1, saying: "refused user \"\(server.user)\"", password: "not-the-password-42")
        #expect(!result.stderr.contains(server.password ?? "unset"))
    }

    @Test func aMissingDatabaseIsNamed() async throws {
        let server = try Self.server()
        let result = try await serve(Self.text(server.with(database: "tessera_no_such_database")))
        expectRefused(
            result, status: 1, saying: "has no database \"tessera_no_such_database\"", password: server.password)
    }

    @Test func requiringTLSFromAServerWithoutItFails() async throws {
        let server = try Self.server()
        let result = try await serve(Self.text(server, query: "sslmode=require"))
        expectRefused(result, status: 1, saying: "the server does not offer TLS", password: server.password)
    }

    @Test func aSchemaNewerThanThisBinaryIsRefused() async throws {
        let server = try Self.server()
        try await TestPostgres.withFreshDatabase(on: server) { url in
            try await PostgresAppDatabase.withSingleConnection(url, logger: .init(label: "test")) { connection in
                try await connection.query(
                    """
                    CREATE TABLE schema_migrations (
                        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                    """, logger: .init(label: "test"))
                try await connection.query(
                    "INSERT INTO schema_migrations (version, name) VALUES (999, 'from a newer Tessera')",
                    logger: .init(label: "test"))
                return ()
            }
            let result = try await serve(Self.text(url))
            expectRefused(
                result, status: 1, saying: "schema version 999 but this Tessera knows versions up to",
                password: server.password)
        }
    }

    /// `tessera gallery` reads `TESSERA_DATABASE_URL` too: galleries made from one data folder are seen from
    /// another (the pool does not run in a command; each query has a connection of its own).
    @Test func galleryCommandsShareTheDatabase() async throws {
        let server = try Self.server()
        try await TestPostgres.withFreshDatabase(on: server) { url in
            func run(_ arguments: [String]) async throws -> CLIProcess.Result {
                let data = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "tessera-pg-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: data) }
                return try await CLIProcess.run(
                    arguments, environment: ["TESSERA_DATA": data.path, "TESSERA_DATABASE_URL": url.urlText])
            }
            let created = try await run(["gallery", "create", "From the CLI"])
            #expect(created.status == 0, "\(created.stderr)")
            let listed = try await run(["gallery", "list"])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains("From the CLI"), "\(listed.stdout)")
        }
    }

    /// Two servers started together on one fresh database: both serve, the schema was migrated once, they
    /// share one signing key (so they sign the same photo's URLs alike), and their galleries are one.
    @Test func twoServersStartTogetherOnOneDatabase() async throws {
        let server = try Self.server()
        try await TestPostgres.withFreshDatabase(on: server) { url in
            let folders = (0..<2).map { _ in
                FileManager.default.temporaryDirectory.appendingPathComponent("tessera-pg-\(UUID().uuidString)")
            }
            defer { folders.forEach { try? FileManager.default.removeItem(at: $0) } }
            func start(_ folder: URL) async throws -> ServerProcess {
                try await ServerProcess.start(
                    [],
                    environment: [
                        "TESSERA_DATA": folder.path, "TESSERA_DATABASE_URL": Self.text(url),
                        "TESSERA_LOG_LEVEL": "trace",
                        "TESSERA_SAMPLES": Self.samples.path,
                    ])
            }
            async let starting = start(folders[0])
            async let alsoStarting = start(folders[1])
            let servers = try await [starting, alsoStarting]
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            var links: [Set<String>] = []
            for server in servers {
                links.append(try await Self.imageLinks(TesseraAPI(client: client, port: server.port)))
            }
            // A gallery made through one server is the other's too, revisions and all.
            let (first, second) = (
                TesseraAPI(client: client, port: servers[0].port), TesseraAPI(client: client, port: servers[1].port)
            )
            let made = try first.json(
                Gallery.self, try await first.send("POST", "/api/galleries", json: #"{"name":"Shared"}"#), 201)
            let renamed = try second.json(
                Gallery.self,
                try await second.send("PATCH", "/api/galleries/\(made.id)", json: #"{"name":"Shared too"}"#), 200)
            #expect(renamed.revision == made.revision + 1)
            let seen = try first.json(Gallery.self, try await first.send("GET", "/api/galleries/\(made.id)"), 200)
            #expect(seen.name == "Shared too" && seen.revision == renamed.revision)
            try await client.shutdown()
            let logs = servers.map { $0.child.stderr + $0.child.stdout }
            for server in servers { #expect(await server.stop() == 0) }
            #expect(!links[0].isEmpty && links[0] == links[1], "both sign the same photo's URLs alike")
            for log in logs {
                #expect(log.contains("PostgreSQL holds galleries"), "\(log.suffix(2000))")
                #expect(!log.contains(url.password ?? "unset"), "the password is never logged")
            }
            let versions = try await PostgresAppDatabase.withSingleConnection(url, logger: .init(label: "test")) {
                connection in
                var versions: [Int] = []
                for try await version in try await connection.query(
                    "SELECT version FROM schema_migrations ORDER BY version", logger: .init(label: "test")
                ).decode(Int.self) {
                    versions.append(version)
                }
                return versions
            }
            #expect(versions == PostgresAppDatabase.schemaVersions)
            // Neither wrote a key file: the key is the database's.
            for folder in folders {
                #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("image-secret").path))
            }
        }
    }

    /// `/api/health` tells a load balancer when the shared database is away (503 `database_unavailable`,
    /// naming it without the password) and when it is back; the server keeps running meanwhile.
    @Test func healthSaysWhenTheSharedDatabaseIsAwayAndBack() async throws {
        let server = try Self.server()
        try await TestPostgres.withFreshDatabase(on: server) { url in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tessera-pg-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let process = try await ServerProcess.start(
                [], environment: ["TESSERA_DATA": folder.path, "TESSERA_DATABASE_URL": Self.text(url)])
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let api = TesseraAPI(client: client, port: process.port)
            func health(becomes status: Int) async throws -> String {
                let deadline = ContinuousClock.now + .seconds(60)
                var last = ""
                while ContinuousClock.now < deadline {
                    let answer = try await api.send("GET", "/api/health")
                    if answer.status == status { return answer.text }
                    last = "\(answer.status) \(answer.text)"
                    try await Task.sleep(for: .milliseconds(250))
                }
                Issue.record("health never answered \(status); last: \(last)")
                return last
            }
            #expect(try await health(becomes: 200).contains(#""database":"ok""#))

            // Nobody may connect to it, and the server's connections are ended: as a database restart looks.
            try await TestPostgres.administer(server, "ALTER DATABASE \(url.database) ALLOW_CONNECTIONS false")
            try await TestPostgres.administer(
                server, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(url.database)'")
            let away = try await health(becomes: 503)
            #expect(away.contains(#""code":"database_unavailable""#), "\(away)")
            #expect(!away.contains(url.password ?? "unset"), "the password is never shown")

            try await TestPostgres.administer(server, "ALTER DATABASE \(url.database) ALLOW_CONNECTIONS true")
            #expect(try await health(becomes: 200).contains(#""database":"ok""#))
            try await client.shutdown()
            let log = process.child.stderr + process.child.stdout
            #expect(await process.stop() == 0)
            #expect(!log.contains(url.password ?? "unset"), "the password is never logged")
        }
    }
}
