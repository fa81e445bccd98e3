import Testing

@testable import TesseraServer

/// A failed request's log line names its path, but never a link's slug: the slug opens the gallery.
@Suite struct LoggedPathTests {
    @Test func aLinksSlugIsLeftOutOfTheLoggedPath() {
        let slug = "Xq3vJ0aZk1Lm2Nn3Oo4Pp5"
        #expect(LoggedPath.of("/s/\(slug)") == "/s/…")
        #expect(LoggedPath.of("/s/\(slug)/img/thumb/sig/src") == "/s/…/img/thumb/sig/src")
        #expect(LoggedPath.of("/api/shared/\(slug)/unlock") == "/api/shared/…/unlock")
        #expect(!LoggedPath.of("/api/shared/\(slug)").contains(slug))
    }

    @Test func otherPathsAreLoggedAsTheyAreUpTo300Characters() {
        #expect(LoggedPath.of("/api/galleries/g_1/items") == "/api/galleries/g_1/items")
        #expect(LoggedPath.of("/search") == "/search")
        #expect(LoggedPath.of("/") == "/")
        #expect(LoggedPath.of("/api/" + String(repeating: "a", count: 500)).count == 300)
    }
}
