import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// Previews that play and actions that fit the kind, as a person sees them: a song's preview plays through
/// the media route (in byte ranges), a film gets a video player; an app shows its price, rating and
/// screenshots, a book its author and description; store items link to their store instead of offering
/// Download and "Copy attribution".
@Suite("Previews and kinds in a browser", .chromedriver, .serialized)
struct MediaUITests {
    /// Opens the first result of `scope` in the detail view.
    private static func openFirst(_ browser: Browser, _ app: WebApp, scope: String) async throws {
        try await browser.open(app, "/search?q=fox&scope=\(scope)")
        try await browser.waitForTiles(atLeast: 1)
        let title = try await browser.execute("return document.querySelector('#results .tile img').alt").string
        try await browser.waitFor("#results .tile:nth-child(1) a").click()
        try await browser.waitUntil("the detail of \(scope)") { try await browser.text(of: "#detail-title") == title }
    }

    /// Whether `selector` is on screen: not hidden, and with a box.
    private static func shown(_ browser: Browser, _ selector: String) async throws -> Bool {
        try await browser.execute(
            """
            const e = document.querySelector(arguments[0]);
            return !!e && !e.closest('[hidden]') && e.getBoundingClientRect().width > 0
            """, [.string(selector)]
        ).bool ?? false
    }

    /// The store item's actions: no Download or credit copying anywhere, the store's link instead.
    private static func expectStoreActions(_ browser: Browser, label: String, host: String) async throws {
        for action in ["download", "copy-text", "copy-html", "copy-markdown", "copy-xml"] {
            #expect(try await !shown(browser, "#detail-actions [data-action=\(action)]"), "\(action)")
            #expect(try await browser.isHidden("#action-menu [data-action=\(action)]"), "\(action) in the menu")
        }
        #expect(try await shown(browser, "#detail-store-link"))
        #expect(try await browser.text(of: "#detail-store-link") == label)
        let href = try await browser.execute("return document.querySelector('#detail-store-link').href").string ?? ""
        #expect(URL(string: href)?.host == host, "\(href)")
        #expect(try await browser.isHidden("#detail-page"), "one link to the store, not two")
        let reuse = try await browser.text(of: "#detail-reuse-label")
        #expect(reuse == "All rights reserved: ask the creator before any reuse")
    }

    /// Requests the server answered on the media route with `status`, from its own metrics.
    private static func mediaAnswers(_ browser: Browser, status: Int) async throws -> Double {
        let text =
            try await browser.executeAsync("fetch('/metrics').then(r => r.text()).then(arguments[0])").string ?? ""
        return text.split(separator: "\n").filter {
            $0.hasPrefix("tessera_http_requests_total{") && $0.contains("route=\"/media/{signature}/{source}\"")
                && $0.contains("status=\"\(status)\"")
        }.compactMap { Double($0.split(separator: " ").last ?? "") }.reduce(0, +)
    }

    @Test(arguments: phoneAndDesktop.map { [$0.width, $0.height, $0.mobile ? 1 : 0] })
    func aSongsPreviewPlaysThroughTheMediaRoute(size: [Int]) async throws {
        try await WebApp.run { app in
            try await withBrowser(width: size[0], height: size[1], mobile: size[2] == 1) { browser in
                try await Self.openFirst(browser, app, scope: "music")
                let player = try await browser.waitFor("#detail-play audio#detail-player")
                #expect(try await player.attribute("src")?.hasPrefix("/media/") == true)
                #expect(try await Self.shown(browser, "#detail-player"))
                #expect(try await browser.text(of: "#detail-play .play-note") == "Preview courtesy of iTunes")
                #expect(try await Self.shown(browser, "#stage-image"), "the artwork stays on screen")

                // Muted, so no autoplay rule stands in the way; a person presses play in the controls.
                _ = try await browser.execute(
                    "const a = document.querySelector('#detail-player'); a.muted = true; a.play()")
                try await browser.waitUntil("the preview to play", timeout: .seconds(20)) {
                    let state =
                        try await browser.execute(
                            """
                            const a = document.querySelector('#detail-player');
                            return [a.readyState, a.currentTime, a.error ? a.error.code : 0]
                            """
                        ).array?.compactMap(\.double) ?? []
                    return state.count == 3 && state[0] >= 2 && state[1] > 0.3 && state[2] == 0
                }
                let duration =
                    try await browser.execute("return document.querySelector('#detail-player').duration")
                    .double ?? 0
                #expect(abs(duration - 3) < 0.1, "the stand-in's three seconds, whole")
                #expect(try await Self.mediaAnswers(browser, status: 206) >= 1, "the browser asked for ranges")
                #expect(try await browser.isHidden("#detail-play-error"))

                try await Self.expectStoreActions(browser, label: "View in Apple Music", host: "music.apple.com")
                // Closing stops it.
                try await browser.waitFor("#detail-close").click()
                try await browser.waitUntil("the results") { try await browser.isHidden("#detail") }
                #expect(try await browser.execute("return document.querySelector('#detail-player')").isNull)
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func aFilmGetsAVideoPlayerWithItsPoster() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await Self.openFirst(browser, app, scope: "movies")
                let player = try await browser.waitFor("#detail-play video#detail-player")
                #expect(try await player.attribute("poster")?.hasPrefix("/img/") == true)
                try await browser.waitUntil("the trailer's metadata") {
                    try await browser.execute("return document.querySelector('#detail-player').readyState").double
                        ?? 0 >= 1
                }
                try await Self.expectStoreActions(browser, label: "View in Apple TV", host: "itunes.apple.com")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test(arguments: phoneAndDesktop.map { [$0.width, $0.height, $0.mobile ? 1 : 0] })
    func anAppShowsPriceRatingAndScreenshotsAndABookItsAuthorAndDescription(size: [Int]) async throws {
        try await WebApp.run { app in
            try await withBrowser(width: size[0], height: size[1], mobile: size[2] == 1) { browser in
                try await Self.openFirst(browser, app, scope: "apps")
                #expect(try await Self.shown(browser, "#detail-facts"))
                let price = try await browser.text(of: "#detail-price")
                #expect(["Price: Free", "Price: $2.99"].contains(price), "\(price)")
                let rating = try await browser.text(of: "#detail-rating")
                #expect(rating.hasPrefix("★ 4.5 out of 5 ("), "\(rating)")
                #expect(rating.hasSuffix(" ratings)"), "\(rating)")
                #expect(try await browser.text(of: "#detail-creator-label") == "Developer:")
                _ = try await browser.execute(
                    "document.querySelector('#detail-screenshots').scrollIntoView({ block: 'center' })")
                try await browser.waitUntil("three screenshots, loaded") {
                    try await browser.execute(
                        """
                        const shots = [...document.querySelectorAll('#detail-screenshots img')];
                        return shots.length === 3 && shots.every(i => i.getAttribute('src').startsWith('/img/preview/')
                          && i.complete && i.naturalWidth > 0)
                        """
                    ).bool == true
                }
                #expect(try await browser.isHidden("#detail-play"), "an app has no preview to play")
                try await Self.expectStoreActions(browser, label: "View in the App Store", host: "apps.apple.com")

                try await Self.openFirst(browser, app, scope: "books")
                #expect(try await browser.text(of: "#detail-creator-label") == "Author:")
                #expect(try await browser.text(of: "#detail-creator").hasPrefix("Creator "))
                let description = try await browser.text(of: "#detail-description")
                #expect(description.hasPrefix("Bold & more: the story of"), "\(description)")
                #expect(
                    try await browser.execute("return document.querySelector('#detail-description *')").isNull,
                    "the description is text, never markup")
                #expect(try await browser.isHidden("#detail-screenshots"))
                try await Self.expectStoreActions(browser, label: "View in Apple Books", host: "books.apple.com")

                // A photo whose licence allows reuse keeps Download and the credit actions, and no store link.
                try await Self.openFirst(browser, app, scope: "pixabay")
                #expect(try await Self.shown(browser, "#detail-actions [data-action=download]"))
                #expect(try await Self.shown(browser, "#detail-actions [data-action=copy-text]"))
                #expect(try await browser.isHidden("#detail-store"))
                #expect(try await browser.isHidden("#detail-facts"))
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func aPreviewThatIsNotMediaSaysSo() async throws {
        try await WebApp.run(configure: { $0.itunes.previews.answersNotMedia = true }) { app in
            try await withBrowser(width: 390, height: 844, mobile: true) { browser in
                try await Self.openFirst(browser, app, scope: "music")
                try await browser.waitUntil("the preview's error") { try await !browser.isHidden("#detail-play-error") }
                #expect(try await browser.text(of: "#detail-play-error").hasPrefix("This preview cannot be played"))
                #expect(
                    try await browser.execute("return document.querySelector('#detail-player').error.code").double == 4)
                #expect(try await Self.mediaAnswers(browser, status: 502) >= 1, "the route refused the page")
                // The one console line allowed: Chromium's own for the refused preview.
                #expect(try await browser.consoleErrorMessages().allSatisfy { $0.contains("502") })
            }
        }
    }
}
