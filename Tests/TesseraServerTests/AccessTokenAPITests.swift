import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraServer
import TesseraTestSupport
import Testing

/// Personal access tokens over HTTP: made with a session, shown once, read or read-write, revocable.
@Suite("Accounts: personal access tokens over HTTP")
struct AccessTokenAPITests {
    struct Token: Decodable {
        let id: String
        let name: String
        let scope: String
        let secret: String?
        let lastUsedAt: String?
    }

    struct Tokens: Decodable { let tokens: [Token] }

    static func make(_ client: any TestClientProtocol, _ cookie: String, _ name: String, _ scope: String)
        async throws -> Token
    {
        let response = try await client.withSession(
            cookie, "/api/tokens", method: .post, body: #"{"name":"\#(name)","scope":"\#(scope)"}"#)
        try #require(response.status == .created, "\(response.text)")
        return try response.json(Token.self)
    }

    @Test func aReadTokenReadsAndIsRefusedEveryChange() async throws {
        try await withAccounts { client, _ in
            let cookie = try await client.signIn()
            let token = try await Self.make(client, cookie, "backup script", "read")
            let secret = try #require(token.secret)
            #expect(secret.hasPrefix("tsr_") && secret.count > 40)
            #expect(try await client.withBearer(secret, "/api/galleries").status == .ok)
            let write = try await client.withBearer(secret, "/api/galleries", method: .post, body: #"{"name":"x"}"#)
            #expect(write.status == .forbidden)
            #expect(try write.apiError().code == "read_only_token")
            let listed = try await client.withSession(cookie, "/api/tokens")
            let tokens = try listed.json(Tokens.self).tokens
            #expect(tokens.map(\.name) == ["backup script"])
            #expect(tokens[0].secret == nil && !listed.text.contains(secret), "the secret is shown once")
            #expect(tokens[0].lastUsedAt != nil)
        }
    }

    @Test func aWriteTokenChangesThingsButCannotMakeTokensAndRevokingEndsIt() async throws {
        try await withAccounts { client, _ in
            let cookie = try await client.signIn()
            let token = try await Self.make(client, cookie, "sync", "write")
            let secret = try #require(token.secret)
            let made = try await client.withBearer(
                secret, "/api/galleries", method: .post, body: #"{"name":"From a script"}"#)
            #expect(made.status == .created)
            let more = try await client.withBearer(
                secret, "/api/tokens", method: .post, body: #"{"name":"x","scope":"write"}"#)
            #expect(more.status == .forbidden)
            #expect(try more.apiError().code == "session_required")
            let me = try await client.withBearer(secret, "/api/me")
            #expect(me.text.contains(#""via":"token""#))
            #expect(
                try await client.withSession(cookie, "/api/tokens/\(token.id)", method: .delete).status == .noContent)
            let after = try await client.withBearer(secret, "/api/galleries")
            #expect(after.status == .unauthorized)
            #expect(try after.apiError().code == "invalid_token")
            #expect(
                try await client.withSession(cookie, "/api/tokens/\(token.id)", method: .delete).status == .notFound)
        }
    }

    @Test func anotherUserCannotRevokeMyTokenNorIsAnythingButATokenAccepted() async throws {
        try await withAccounts(users: [("ada", "correct horse", true), ("bob", "bob's password", false)]) {
            client, _ in
            let ada = try await client.signIn()
            let bob = try await client.signIn("bob", "bob's password")
            let token = try await Self.make(client, ada, "cli", "read")
            #expect(try await client.withSession(bob, "/api/tokens/\(token.id)", method: .delete).status == .notFound)
            #expect(try await client.withSession(bob, "/api/tokens").json(Tokens.self).tokens.isEmpty)
            #expect(try await client.withBearer(try #require(token.secret), "/api/me").status == .ok)
            for wrong in ["tsr_not-a-token", "shared-secret", String(ada.split(separator: "=")[1])] {
                #expect(try await client.withBearer(wrong, "/api/me").status == .unauthorized, "\(wrong)")
            }
            let invalid = try await client.withSession(
                ada, "/api/tokens", method: .post, body: #"{"name":"x","scope":"admin"}"#)
            #expect(invalid.status == .badRequest)
            let blank = try await client.withSession(
                ada, "/api/tokens", method: .post, body: #"{"name":"  ","scope":"read"}"#)
            #expect(blank.status == .badRequest)
        }
    }
}
