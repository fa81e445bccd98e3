import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraServer
import TesseraTestSupport
import Testing

/// `TESSERA_AUTH=accounts` over HTTP: signing in and out, who may reach what, session expiry, back-off.
@Suite("Accounts: sessions over HTTP")
struct AccountsAPITests {
    struct Me: Decodable {
        struct Account: Decodable {
            let name: String
            let admin: Bool
        }
        let auth: String
        let account: Account?
        let via: String?
    }

    @Test func signingInSetsASafeCookieAndMeSaysWho() async throws {
        try await withAccounts { client, _ in
            let response = try await client.execute(
                uri: "/api/session", method: .post, headers: sameOrigin,
                body: ByteBuffer(string: #"{"name":"Ada","password":"correct horse"}"#))
            #expect(response.status == .ok)
            #expect(!response.text.contains("correct horse"))
            let me = try response.json(Me.self)
            #expect(me.auth == "accounts" && me.account?.name == "ada" && me.account?.admin == true)
            let cookie = try #require(response.headers[.setCookie])
            let attributes = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            #expect(attributes[0].hasPrefix("tessera_session="))
            // 256 bits in base64url: 43 characters.
            #expect(attributes[0].count == "tessera_session=".count + 43)
            #expect(
                attributes.contains("httponly") && attributes.contains("samesite=lax") && attributes.contains("path=/"))
            #expect(!attributes.contains("secure"), "plain http without a public https address")
            let session = String(cookie.split(separator: ";")[0])
            let asked = try await client.withSession(session, "/api/me")
            #expect(try asked.json(Me.self).via == "session")
        }
    }

    @Test func anHTTPSPublicAddressMakesTheCookieSecure() async throws {
        try await withAccounts(extraEnvironment: ["TESSERA_PUBLIC_URL": "https://photos.example.org"]) { client, _ in
            let response = try await client.execute(
                uri: "/api/session", method: .post, headers: sameOrigin,
                body: ByteBuffer(string: #"{"name":"ada","password":"correct horse"}"#))
            let cookie = try #require(response.headers[.setCookie]).lowercased()
            #expect(cookie.contains("; secure"))
        }
    }

    @Test func withoutASessionTheAPIIs401AndPagesGoToTheSignInPage() async throws {
        try await withAccounts { client, _ in
            let api = try await client.execute(uri: "/api/galleries", method: .get)
            #expect(api.status == .unauthorized)
            #expect(try api.apiError().code == "sign_in_required")
            let image = try await client.execute(uri: "/img/thumb/abc/def", method: .get)
            #expect(image.status == .unauthorized)
            let home = try await client.execute(uri: "/", method: .get)
            #expect(home.status == .seeOther && home.headers[.location] == "/login")
            let page = try await client.execute(uri: "/galleries/g_123?x=1", method: .get)
            #expect(page.headers[.location] == "/login?next=/galleries/g_123%3Fx%3D1")
            let login = try await client.execute(uri: "/login", method: .get)
            #expect(login.status == .ok && login.text.contains("login-form"))
            #expect(login.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            let script = try await client.execute(uri: "/app/account/login.js", method: .get)
            #expect(script.status == .ok)
            #expect(try await client.execute(uri: "/api/health", method: .get).status == .ok)
            let forged = try await client.withSession("tessera_session=forged", "/api/me")
            #expect(forged.status == .unauthorized)
        }
    }

    @Test func aWrongNameAndAWrongPasswordGetTheSameAnswer() async throws {
        try await withAccounts { client, _ in
            var answers: [String] = []
            for body in [#"{"name":"ada","password":"wrong password"}"#, #"{"name":"nobody","password":"x"}"#] {
                let response = try await client.execute(
                    uri: "/api/session", method: .post, headers: sameOrigin, body: ByteBuffer(string: body))
                #expect(response.status == .unauthorized)
                #expect(response.headers[.setCookie] == nil)
                answers.append(response.text)
            }
            #expect(answers[0] == answers[1])
            #expect(answers[0].contains("wrong_credentials"))
            let bad = try await client.execute(
                uri: "/api/session", method: .post, headers: sameOrigin, body: ByteBuffer(string: #"{"name":1}"#))
            #expect(bad.status == .badRequest)
        }
    }

    @Test func fiveFailuresLockTheNameEvenForTheRightPasswordUntilTheLockEnds() async throws {
        let clock = TestClock()
        try await withAccounts(clock: clock) { client, _ in
            func attempt(_ name: String, _ password: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/api/session", method: .post, headers: sameOrigin,
                    body: ByteBuffer(string: #"{"name":"\#(name)","password":"\#(password)"}"#))
            }
            for _ in 0..<5 { #expect(try await attempt("ada", "guess").status == .unauthorized) }
            let locked = try await attempt("ada", "correct horse")
            #expect(locked.status == .tooManyRequests)
            #expect(try locked.apiError().code == "too_many_attempts")
            #expect(locked.headers[.retryAfter] == "60")
            // An unknown name is locked alike: the answer tells nothing about which names exist.
            for _ in 0..<5 { _ = try await attempt("nobody", "guess") }
            clock.advance(by: 61)
            #expect(try await attempt("nobody", "guess").status == .unauthorized, "the address's lock ended too")
            #expect(try await attempt("ada", "correct horse").status == .ok)
        }
    }

    @Test func failuresFromOneAddressLockItForEveryName() async throws {
        try await withAccounts(users: [("ada", "correct horse", true), ("bob", "bob's password", false)]) {
            client, _ in
            for index in 0..<5 {
                _ = try await client.execute(
                    uri: "/api/session", method: .post, headers: sameOrigin,
                    body: ByteBuffer(string: #"{"name":"guess\#(index)","password":"x"}"#))
            }
            let response = try await client.execute(
                uri: "/api/session", method: .post, headers: sameOrigin,
                body: ByteBuffer(string: #"{"name":"bob","password":"bob's password"}"#))
            #expect(response.status == .tooManyRequests)
        }
    }

    @Test func anIdleSessionEndsAndAnUsedOneLastsUntilItsAbsoluteEnd() async throws {
        let clock = TestClock()
        let settings = ["TESSERA_SESSION_IDLE": "60", "TESSERA_SESSION_MAX": "5m"]
        try await withAccounts(extraEnvironment: settings, clock: clock) { client, _ in
            let idle = try await client.signIn()
            let used = try await client.signIn()
            for _ in 0..<5 {
                clock.advance(by: 50)
                #expect(try await client.withSession(used, "/api/me").status == .ok)
            }
            // 250 s: the idle one was last used 250 s ago.
            #expect(try await client.withSession(idle, "/api/me").status == .unauthorized)
            clock.advance(by: 51)
            // 301 s after signing in: past the absolute end, however busy.
            #expect(try await client.withSession(used, "/api/me").status == .unauthorized)
        }
    }

    @Test func signingOutEndsOneSessionAndSigningOutEverywhereEndsAll() async throws {
        try await withAccounts(users: [("ada", "correct horse", true), ("bob", "bob's password", false)]) {
            client, _ in
            let phone = try await client.signIn()
            let laptop = try await client.signIn()
            let tablet = try await client.signIn()
            let bob = try await client.signIn("bob", "bob's password")
            let out = try await client.withSession(phone, "/api/session", method: .delete)
            #expect(out.status == .noContent)
            #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await client.withSession(phone, "/api/me").status == .unauthorized)
            #expect(try await client.withSession(laptop, "/api/me").status == .ok)
            let everywhere = try await client.withSession(laptop, "/api/sessions", method: .delete)
            #expect(everywhere.status == .noContent)
            #expect(try await client.withSession(laptop, "/api/me").status == .unauthorized)
            #expect(try await client.withSession(tablet, "/api/me").status == .unauthorized)
            #expect(try await client.withSession(bob, "/api/me").status == .ok, "another account stays signed in")
        }
    }

    @Test func thePasswordNeverReachesTheLog() async throws {
        let capture = LogCapture()
        try await withAccounts(logger: capture.logger(level: .trace)) { client, _ in
            _ = try await client.signIn()
            _ = try await client.execute(
                uri: "/api/session", method: .post, headers: sameOrigin,
                body: ByteBuffer(string: #"{"name":"ada","password":"a wrong secret"}"#))
        }
        #expect(!capture.entries.isEmpty)
        for entry in capture.entries {
            let line = entry.message + entry.metadata.values.joined()
            #expect(!line.contains("correct horse") && !line.contains("a wrong secret"))
        }
    }
}
