import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TesseraAccounts
import TesseraServer
import TesseraTestSupport
import Testing

/// The real app in `TESSERA_AUTH=accounts` over real HTTP, with `users` added through its account service (as
/// `tessera user add` does; the command itself is tested as a process in TesseraCLITests). bcrypt at cost 4:
/// the cost is a setting, and the tests are about the rules, not the hash's time.
func withAccounts(
    users: [(name: String, password: String, admin: Bool)] = [("ada", "correct horse", true)],
    extraEnvironment: [String: String] = [:], clock: TestClock? = nil, logger: Logger? = nil, dataFolder: URL? = nil,
    _ body: @Sendable (any TestClientProtocol, AppEnvironment) async throws -> Void
) async throws {
    let data =
        dataFolder
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("tessera-accounts-\(UUID().uuidString)")
    defer { if dataFolder == nil { try? FileManager.default.removeItem(at: data) } }
    var environment = [
        "TESSERA_DATA": data.path, "TESSERA_PORT": "0", "TESSERA_SAMPLES": "none", "TESSERA_AUTH": "accounts",
        "TESSERA_BCRYPT_COST": "4",
    ]
    environment.merge(extraEnvironment) { _, new in new }
    let configuration = try AppConfiguration(environment: environment)
    var quiet = Logger(label: "tessera-test")
    quiet.logLevel = .critical
    let app = try await AppEnvironment.live(configuration, logger: logger ?? quiet, now: clock?.now ?? Date.init)
    for user in users {
        _ = try await app.accounts.add(name: user.name, password: user.password, admin: user.admin)
    }
    try await buildApplication(app).test(.live) { client in try await body(client, app) }
}

/// What a browser sends with a request from one of the app's own pages.
let sameOrigin: HTTPFields = [HTTPField.Name("Sec-Fetch-Site")!: "same-origin", .contentType: "application/json"]

extension TestClientProtocol {
    /// Signs in and returns the `Cookie` header value the browser would send from then on.
    func signIn(_ name: String = "ada", _ password: String = "correct horse") async throws -> String {
        let response = try await execute(
            uri: "/api/session", method: .post, headers: sameOrigin,
            body: ByteBuffer(string: #"{"name":"\#(name)","password":"\#(password)"}"#))
        try #require(response.status == .ok, "signing in as \(name): \(String(buffer: response.body))")
        let setCookie = try #require(response.headers[.setCookie])
        return String(try #require(setCookie.split(separator: ";").first))
    }

    /// `method` on `uri` with the session cookie, as the app's own page sends it.
    func withSession(
        _ cookie: String, _ uri: String, method: HTTPRequest.Method = .get, body: String? = nil,
        headers: HTTPFields = sameOrigin
    ) async throws -> TestResponse {
        var headers = headers
        headers[.cookie] = cookie
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    func withBearer(_ token: String, _ uri: String, method: HTTPRequest.Method = .get, body: String? = nil)
        async throws -> TestResponse
    {
        try await execute(
            uri: uri, method: method, headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
            body: body.map { ByteBuffer(string: $0) })
    }
}
