import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraServer
import TesseraTestSupport
import Testing

/// The three modes: which one a configuration picks, what each refuses to start with, and what the API says.
@Suite("Auth modes")
struct AuthModeTests {
    @Test func theModeFollowsTESSERA_AUTHElseTheToken() throws {
        #expect(try AppConfiguration(environment: [:]).auth == .none)
        #expect(try AppConfiguration(environment: ["TESSERA_TOKEN": "s"]).auth == .token, "deployments from before")
        #expect(
            try AppConfiguration(environment: ["TESSERA_TOKEN": "s", "TESSERA_AUTH": "accounts"]).auth == .accounts)
        #expect(try AppConfiguration(environment: ["TESSERA_AUTH": "Token"]).auth == .token)
        #expect(throws: ConfigurationError.self) { try AppConfiguration(environment: ["TESSERA_AUTH": "open"]) }
        #expect(throws: ConfigurationError.self) { try AppConfiguration(environment: ["TESSERA_SESSION_IDLE": "0"]) }
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration(environment: ["TESSERA_PUBLIC_URL": "ftp://x"])
        }
        let settings = try AppConfiguration(environment: ["TESSERA_SESSION_IDLE": "14d", "TESSERA_BCRYPT_COST": "10"])
        #expect(settings.accounts.sessionIdle == .seconds(14 * 86_400) && settings.accounts.bcryptCost == 10)
    }

    @Test func notLoopbackNeedsATokenOrAccounts() throws {
        func check(_ environment: [String: String]) throws {
            try AppConfiguration(environment: environment).validateForServing()
        }
        #expect(throws: Never.self) { try check(["TESSERA_HOST": "127.0.0.1"]) }
        do {
            try check(["TESSERA_HOST": "0.0.0.0"])
            Issue.record("none on 0.0.0.0 started")
        } catch {
            #expect("\(error)".contains("TESSERA_AUTH=none"))
        }
        #expect(throws: ConfigurationError.self) { try check(["TESSERA_HOST": "0.0.0.0", "TESSERA_AUTH": "none"]) }
        #expect(throws: ConfigurationError.self) { try check(["TESSERA_AUTH": "token"]) }
        #expect(throws: Never.self) { try check(["TESSERA_HOST": "0.0.0.0", "TESSERA_TOKEN": "s"]) }
        #expect(throws: Never.self) { try check(["TESSERA_HOST": "0.0.0.0", "TESSERA_AUTH": "accounts"]) }
    }

    @Test func withoutAccountsTheAccountRoutesSaySo() async throws {
        try await withTessera([]) { client, _ in
            let me = try await client.execute(uri: "/api/me", method: .get)
            #expect(me.status == .ok && me.text == #"{"auth":"none"}"#)
            let signIn = try await client.execute(
                uri: "/api/session", method: .post, headers: sameOrigin,
                body: ByteBuffer(string: #"{"name":"ada","password":"x"}"#))
            #expect(signIn.status == .notFound)
            #expect(try signIn.apiError().code == "accounts_off")
            #expect(try await client.execute(uri: "/api/tokens", method: .get).status == .notFound)
            let login = try await client.execute(uri: "/login", method: .get)
            #expect(login.status == .seeOther && login.headers[.location] == "/")
            #expect(try await client.execute(uri: "/api/galleries", method: .get).status == .ok, "open, as before")
        }
        // Token mode without a token never starts from `tessera serve`; built anyway, it stays closed.
        try await withTessera([], extraEnvironment: ["TESSERA_AUTH": "token"]) { client, _ in
            let response = try await client.execute(uri: "/api/galleries", method: .get)
            #expect(response.status == .unauthorized)
        }
        try await withTessera([], extraEnvironment: ["TESSERA_TOKEN": "t"]) { client, _ in
            #expect(try await client.execute(uri: "/api/me", method: .get).status == .unauthorized)
            let me = try await client.execute(uri: "/api/me", method: .get, headers: [.authorization: "Bearer t"])
            #expect(me.text == #"{"auth":"token"}"#)
            // /login takes the token; without it, or with a wrong one, it says how to pass it.
            let taken = try await client.execute(uri: "/login?token=t", method: .get)
            #expect(taken.status == .seeOther && taken.headers[.location] == "/")
            #expect(taken.headers[.setCookie]?.contains("HttpOnly") == true)
            for uri in ["/login", "/login?token=wrong", "/login?token="] {
                let refused = try await client.execute(uri: uri, method: .get)
                #expect(refused.status == .unauthorized, "\(uri)")
                #expect(try refused.apiError().message.contains("/login?token="), "\(uri)")
            }
            let holding = try await client.execute(uri: "/login", method: .get, headers: [.authorization: "Bearer t"])
            #expect(holding.status == .seeOther && holding.headers[.location] == "/")
            // Another method on /login is the router's 405, not a request for the token.
            for method in [HTTPRequest.Method.trace, .post, .delete] {
                let other = try await client.execute(uri: "/login", method: method)
                #expect(other.status == .methodNotAllowed, "\(method)")
                #expect(other.headers[.allow]?.contains("GET") == true, "\(method)")
            }
            #expect(try await client.execute(uri: "/api/galleries", method: .trace).status == .unauthorized)
        }
    }
}
