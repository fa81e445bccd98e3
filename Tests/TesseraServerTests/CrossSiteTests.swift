import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraServer
import TesseraTestSupport
import Testing

/// A form posted from another site carries the user's cookie; it must change nothing. Requests here carry the
/// headers browsers send (`Origin`, `Sec-Fetch-Site`, a form's content type); the Chromium test with a page on
/// a second origin is in TesseraWebTests.
@Suite("Cross-site requests with the cookie")
struct CrossSiteTests {
    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let form: HTTPFields = [
        .contentType: "application/x-www-form-urlencoded", .origin: "http://evil.example", fetchSite: "cross-site",
    ]

    struct Gallery: Decodable { let name: String }

    @Test func aFormFromAnotherSiteChangesNothingInAccountsMode() async throws {
        try await withAccounts { client, _ in
            let cookie = try await client.signIn()
            for headers in [
                Self.form,
                // A sibling subdomain is same-site, not same-origin.
                [.contentType: "text/plain", .origin: "http://sub.127.0.0.1", Self.fetchSite: "same-site"],
                // An old browser: no Sec-Fetch-Site, another Origin.
                [.contentType: "text/plain", .origin: "http://evil.example"],
                // Nothing that says where it came from.
                [.contentType: "application/json"],
            ] as [HTTPFields] {
                let response = try await client.withSession(
                    cookie, "/api/galleries", method: .post, body: #"{"name":"Planted"}"#, headers: headers)
                #expect(response.status == .forbidden)
                #expect(try response.apiError().code == "cross_site")
            }
            let signOut = try await client.withSession(cookie, "/api/sessions", method: .delete, headers: Self.form)
            #expect(signOut.status == .forbidden)
            let list = try await client.withSession(cookie, "/api/galleries")
            #expect(try list.json([Gallery].self).isEmpty, "no gallery was made")
            #expect(try await client.withSession(cookie, "/api/me").status == .ok, "still signed in")
        }
    }

    @Test func theAppsOwnRequestsPassEachWayTheyCanSayIt() async throws {
        try await withAccounts { client, _ in
            let cookie = try await client.signIn()
            for headers in [
                sameOrigin,
                // The live test client asks for the authority `localhost`: the origin of the address it used.
                [.contentType: "application/json", .origin: "http://localhost"],
                [.contentType: "application/json", HTTPField.Name("X-Tessera-Client")!: "web"],
            ] as [HTTPFields] {
                let response = try await client.withSession(
                    cookie, "/api/galleries", method: .post, body: #"{"name":"Mine"}"#, headers: headers)
                #expect(response.status == .created, "\(headers)")
            }
        }
    }

    @Test func signingInFromAnotherSiteIsRefused() async throws {
        try await withAccounts { client, _ in
            let response = try await client.execute(
                uri: "/api/session", method: .post, headers: Self.form,
                body: ByteBuffer(string: #"{"name":"ada","password":"correct horse"}"#))
            #expect(response.status == .forbidden)
            #expect(response.headers[.setCookie] == nil)
        }
    }

    @Test func inTokenModeTheCookieIsCheckedAndTheBearerHeaderIsNot() async throws {
        try await withTessera([], extraEnvironment: ["TESSERA_TOKEN": "shared-secret"]) { client, _ in
            var cross = Self.form
            cross[.cookie] = "tessera_token=shared-secret"
            let refused = try await client.execute(
                uri: "/api/galleries", method: .post, headers: cross, body: ByteBuffer(string: #"{"name":"Planted"}"#))
            #expect(refused.status == .forbidden)
            var mine = sameOrigin
            mine[.cookie] = "tessera_token=shared-secret"
            let made = try await client.execute(
                uri: "/api/galleries", method: .post, headers: mine, body: ByteBuffer(string: #"{"name":"Mine"}"#))
            #expect(made.status == .created)
            // Not cookie-borne: a program's request needs no Origin.
            let program = try await client.execute(
                uri: "/api/galleries", method: .post,
                headers: [.authorization: "Bearer shared-secret", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"name":"Scripted"}"#))
            #expect(program.status == .created)
            let list = try await client.execute(
                uri: "/api/galleries", method: .get, headers: [.authorization: "Bearer shared-secret"])
            #expect(try list.json([Gallery].self).map(\.name).sorted() == ["Mine", "Scripted"])
        }
    }
}
