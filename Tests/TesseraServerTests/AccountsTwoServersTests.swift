import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraServer
import TesseraTestSupport
import Testing

/// Two servers on one database (one SQLite file, or one PostgreSQL database) agree about accounts: a session
/// made on one works on the other, failures on one lock the name on the other, signing out everywhere and
/// revoking a token on one end them on both.
@Suite("Accounts: two servers on one database")
struct AccountsTwoServersTests {
    @Test(arguments: Engine.allCases)
    func sessionsTokensAndTheBackOffAreShared(engine: Engine) async throws {
        try await engine.withEnvironment { database in
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-two-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: data) }
            try await withAccounts(extraEnvironment: database, dataFolder: data) { first, _ in
                try await withAccounts(users: [], extraEnvironment: database, dataFolder: data) { second, _ in
                    let cookie = try await first.signIn()
                    #expect(try await second.withSession(cookie, "/api/me").status == .ok)

                    let made = try await first.withSession(
                        cookie, "/api/tokens", method: .post, body: #"{"name":"sync","scope":"write"}"#)
                    struct Token: Decodable {
                        let id: String
                        let secret: String
                    }
                    let token = try made.json(Token.self)
                    #expect(try await second.withBearer(token.secret, "/api/me").status == .ok)
                    let revoked = try await second.withSession(cookie, "/api/tokens/\(token.id)", method: .delete)
                    #expect(revoked.status == .noContent)
                    #expect(try await first.withBearer(token.secret, "/api/me").status == .unauthorized)

                    let everywhere = try await second.withSession(cookie, "/api/sessions", method: .delete)
                    #expect(everywhere.status == .noContent)
                    #expect(try await first.withSession(cookie, "/api/me").status == .unauthorized)

                    for _ in 0..<5 {
                        _ = try await first.execute(
                            uri: "/api/session", method: .post, headers: sameOrigin,
                            body: ByteBuffer(string: #"{"name":"ada","password":"guess"}"#))
                    }
                    let locked = try await second.execute(
                        uri: "/api/session", method: .post, headers: sameOrigin,
                        body: ByteBuffer(string: #"{"name":"ada","password":"correct horse"}"#))
                    #expect(locked.status == .tooManyRequests)
                }
            }
        }
    }
}
