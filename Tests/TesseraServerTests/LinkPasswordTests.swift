import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TesseraGalleries
import TesseraTestSupport
import Testing

/// Passwords, expiry and the unlock cookie of public links over real HTTP (docs/accounts.md, "Public and drop
/// links"): 401 without the password or with a wrong one, the sign-in back-off (429) after repeated wrong
/// ones, a signed cookie for this link only, 410 once expired; the password in no log and no answer. Time is
/// the app's clock, moved by the test.
@Suite("Link passwords and expiry over HTTP")
struct LinkPasswordTests {
    typealias User = GalleryOwnersAPITests.User
    static let password = "open sesame 42"
    static let passwordHeader = HTTPField.Name("X-Tessera-Link-Password")!

    @Test func aPasswordIsAskedForCheckedWithBackOffAndUnlocksThisLinkOnly() async throws {
        let clock = TestClock()
        let logs = LogCapture()
        try await withAccounts(users: Links.users, clock: clock, logger: logs.logger(level: .trace)) { client, _ in
            let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
            let gallery = try await ada.create("Private party")
            let item = try await Links.upload(ada, gallery.id, Links.jpeg("party"))
            let made = try await ada.call(
                .post, "/api/galleries/\(gallery.id)/links", #"{"kind":"view","password":"\#(Self.password)"}"#)
            try #require(made.status == .created)
            let link = try made.json(Links.Link.self)
            let other = try await Links.create(ada, gallery.id, #"{"kind":"view","password":"another one 9"}"#)
            #expect(link.hasPassword)
            var visitor = Visitor(client)
            let api = "/api/shared/\(link.slug)"

            // The page loads (it asks for the password); the gallery does not.
            #expect(try await visitor.get(link.url).status == .ok)
            let locked = try await visitor.get(api)
            #expect(try locked.status == .unauthorized && locked.apiError().code == "link_password_required")
            #expect(locked.headers[.wwwAuthenticate] != nil)
            let lockedImage = try await visitor.get("/s/\(link.slug)" + item.image.thumbnail.url)
            #expect(lockedImage.status == .unauthorized)
            #expect(try await visitor.get(api, password: Self.password).status == .ok, "the header works too")

            // Wrong passwords: the same answer each time, then the back-off, even for the right one.
            var answers: [TestResponse] = []
            for attempt in 1...6 {
                answers.append(
                    try await visitor.call(.post, api + "/unlock", #"{"password":"guess number \#(attempt)"}"#))
            }
            #expect(
                try answers.prefix(5).allSatisfy {
                    try $0.status == .unauthorized && $0.apiError().code == "link_password_wrong"
                })
            #expect(Set(try answers.prefix(5).map { try $0.apiError().message }).count == 1)
            #expect(answers[5].status == .tooManyRequests && answers[5].headers[.retryAfter] != nil)
            let right = try await visitor.call(.post, api + "/unlock", #"{"password":"\#(Self.password)"}"#)
            #expect(try right.status == .tooManyRequests && right.apiError().code == "too_many_attempts")
            #expect(try await visitor.get(api, password: Self.password).status == .tooManyRequests)
            clock.advance(by: 61)

            // The right password: a cookie for this link, HttpOnly, SameSite=Lax, short-lived.
            let unlocked = try await visitor.call(.post, api + "/unlock", #"{"password":"\#(Self.password)"}"#)
            try #require(unlocked.status == .noContent, "\(unlocked.text)")
            let setCookie = try #require(unlocked.headers[.setCookie])
            #expect(setCookie.hasPrefix("tessera_link_\(link.id)="))
            for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=3600"] {
                #expect(setCookie.contains(attribute), "\(setCookie)")
            }
            #expect(!setCookie.contains("Secure"), "plain http: the browser would not send it back")
            let cookie = String(try #require(setCookie.split(separator: ";").first))
            visitor.cookies = [cookie]
            #expect(try await visitor.get(api).status == .ok)
            #expect(try await visitor.get("/s/\(link.slug)" + item.image.thumbnail.url).status == .ok)
            // Not the other link, and not forged or out of date.
            #expect(try await visitor.get("/api/shared/\(other.slug)").status == .unauthorized)
            let value = cookie.split(separator: "=", maxSplits: 1)[1]
            let expiry = try #require(Int(value.split(separator: ".")[0]))
            for forged in [
                "tessera_link_\(other.id)=\(value)",
                "tessera_link_\(link.id)=\(expiry + 3600).\(value.split(separator: ".")[1])",
                "tessera_link_\(link.id)=\(expiry).00",
            ] {
                visitor.cookies = [forged]
                #expect(try await visitor.get(api).status == .unauthorized, "\(forged)")
            }
            visitor.cookies = [cookie]
            clock.advance(by: 3601)
            #expect(try await visitor.get(api).status == .unauthorized, "an hour later the cookie is spent")

            // Another site's form cannot unlock (nor count a failure).
            let crossSite = try await client.execute(
                uri: api + "/unlock", method: .post, headers: [.contentType: "text/plain"],
                body: ByteBuffer(string: #"{"password":"\#(Self.password)"}"#))
            #expect(try crossSite.status == .forbidden && crossSite.apiError().code == "cross_site")

            // The password is in no answer and no log line.
            let list = try await ada.call(.get, "/api/galleries/\(gallery.id)/links")
            for text in [made.text, list.text] + answers.map(\.text) {
                #expect(!text.contains(Self.password) && !text.contains("$2"), "\(text)")
            }
            let logged = logs.entries.map { "\($0.message) \($0.metadata)" }
            #expect(!logged.isEmpty)
            #expect(!logged.contains { $0.contains(Self.password) || $0.contains("guess number") })
        }
    }

    @Test func theUnlockCookieIsSecureBehindHTTPS() async throws {
        try await withAccounts(users: Links.users, extraEnvironment: ["TESSERA_PUBLIC_URL": "https://photos.example"]) {
            client, _ in
            let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
            let gallery = try await ada.create("Behind a proxy")
            let link = try await Links.create(ada, gallery.id, #"{"kind":"view","password":"\#(Self.password)"}"#)
            let unlocked = try await Visitor(client).call(
                .post, "/api/shared/\(link.slug)/unlock", #"{"password":"\#(Self.password)"}"#)
            #expect(unlocked.status == .noContent)
            #expect(unlocked.headers[.setCookie]?.contains("Secure") == true)
        }
    }

    @Test(arguments: Engine.allCases)
    func anExpiredLinkIsGoneAndADeletedGallerysLinksAnswerNotFound(engine: Engine) async throws {
        let clock = TestClock()
        try await engine.withEnvironment { database in
            try await withAccounts(users: Links.users, extraEnvironment: database, clock: clock) { client, _ in
                let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
                let gallery = try await ada.create("For a day")
                _ = try await Links.upload(ada, gallery.id, Links.jpeg("day"))
                let expiry = clock.now().addingTimeInterval(60).formatted(.iso8601)
                let link = try await Links.create(ada, gallery.id, #"{"kind":"view","expiresAt":"\#(expiry)"}"#)
                #expect(link.expiresAt == expiry)
                let visitor = Visitor(client)
                let api = "/api/shared/\(link.slug)"
                let live = try await visitor.get(api)
                #expect(try live.status == .ok && live.json(Links.Shared.self).expiresAt == expiry)

                clock.advance(by: 61)
                let expired = try await visitor.get(api)
                #expect(try expired.status == .gone && expired.apiError().code == "link_expired")
                let page = try await visitor.get(link.url)
                #expect(page.status == .gone && page.text.contains("public.js"), "the page says why")
                #expect(try await visitor.get(api + "/credits").status == .gone)
                // The owner still sees it, as expired.
                let listed = try await ada.call(.get, "/api/galleries/\(gallery.id)/links").json(Links.LinkList.self)
                #expect(listed.links.map(\.id) == [link.id])

                // In Recently deleted: a view link answers not found; back after a restore; gone for good after.
                let open = try await Links.create(ada, gallery.id)
                #expect(try await ada.call(.delete, "/api/galleries/\(gallery.id)").status == .ok)
                let hidden = try await visitor.get("/api/shared/\(open.slug)")
                #expect(try hidden.status == .notFound && hidden.apiError().code == "link_not_found")
                #expect(try await ada.call(.post, "/api/galleries/\(gallery.id)/restore").status == .ok)
                #expect(try await visitor.get("/api/shared/\(open.slug)").status == .ok)
                let forGood = try await ada.call(.delete, "/api/galleries/\(gallery.id)?permanent=true")
                #expect(forGood.status == .noContent)
                #expect(try await visitor.get("/api/shared/\(open.slug)").status == .notFound)
                #expect(try await ada.call(.delete, "/api/links/\(open.id)").status == .notFound, "gone with it")
            }
        }
    }
}
