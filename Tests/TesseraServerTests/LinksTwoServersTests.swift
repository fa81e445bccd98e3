import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraGalleries
import TesseraTestSupport
import Testing

/// Two servers on one database agree about links (docs/accounts.md, "Public and drop links"): a link made on
/// one opens on the other, the unlock cookie of one is taken by the other (no key of its own), the password
/// back-off and the drop rate are counted together, and a revocation on one is a 404 on both.
@Suite("Links: two servers on one database")
struct LinksTwoServersTests {
    typealias User = GalleryOwnersAPITests.User

    @Test(arguments: Engine.allCases)
    func linksCookiesBackOffAndRatesAreShared(engine: Engine) async throws {
        try await engine.withEnvironment { database in
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-two-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: data) }
            try await withAccounts(users: Links.users, extraEnvironment: database, dataFolder: data) { first, _ in
                try await withAccounts(users: [], extraEnvironment: database, dataFolder: data) { second, _ in
                    let ada = User(client: first, cookie: try await first.signIn("ada", "correct horse"))
                    let gallery = try await ada.create("Both servers")
                    let view = try await Links.create(
                        ada, gallery.id, #"{"kind":"view","password":"open sesame 7"}"#)
                    let drop = try await Links.create(ada, gallery.id, #"{"kind":"drop","perHour":1}"#)
                    let here = Visitor(first)
                    var there = Visitor(second)

                    let unlocked = try await here.call(
                        .post, "/api/shared/\(view.slug)/unlock", #"{"password":"open sesame 7"}"#)
                    try #require(unlocked.status == .noContent)
                    there.cookies = [String(try #require(unlocked.headers[.setCookie]?.split(separator: ";").first))]
                    #expect(try await there.get("/api/shared/\(view.slug)").status == .ok)

                    for attempt in 0..<5 {
                        let wrong = try await here.call(
                            .post, "/api/shared/\(view.slug)/unlock", #"{"password":"wrong guess \#(attempt)"}"#)
                        #expect(wrong.status == .unauthorized)
                    }
                    let locked = try await Visitor(second).get("/api/shared/\(view.slug)", password: "open sesame 7")
                    #expect(locked.status == .tooManyRequests, "the back-off is the database's")

                    #expect(try await here.upload(drop.slug, Links.jpeg("first")).status == .created)
                    let over = try await there.upload(drop.slug, Links.jpeg("second"))
                    #expect(over.status == .tooManyRequests, "one rate for the link, whichever server")

                    #expect(try await ada.call(.delete, "/api/links/\(view.id)").status == .noContent)
                    #expect(try await there.get("/api/shared/\(view.slug)").status == .notFound)
                }
            }
        }
    }
}
