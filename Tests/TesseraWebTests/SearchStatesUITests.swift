import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// The two window sizes every state is checked at: a phone (touch) and a laptop.
let phoneAndDesktop: [(width: Int, height: Int, mobile: Bool)] = [(390, 844, true), (1280, 800, false)]

/// A search's states as a person sees them: services that fail, nothing found, sections that would be empty.
@Suite("Search states in a browser", .chromedriver, .serialized)
struct SearchStatesUITests {
    /// iTunes at a loopback port that refuses connections (bound, not listening, for the whole test).
    private static func withITunesUnreachable(_ body: ([String: String]) async throws -> Void) async throws {
        let closed = try LoopbackSocket()
        defer { closed.close() }
        try await body(["TESSERA_ITUNES_URL": "http://127.0.0.1:\(closed.port)/"])
    }

    @Test func aServiceThatFailsIsOneCalmLineInSectionOrderWithTryAgain() async throws {
        try await Self.withITunesUnreachable { setting in
            try await WebApp.run(
                configure: { $0.openverse.state.setBehavior(.serverError, forQuery: "dog") }, setting: setting
            ) { app in
                for size in phoneAndDesktop {
                    try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                        try await browser.open(app, "/search?q=dog&scope=all")
                        try await browser.waitUntil("every section to settle", timeout: .seconds(20)) {
                            let settled = try await browser.sections().allSatisfy { !$0.pending }
                            let lines = try await browser.findAll("#banners .banner").count
                            return settled && lines == 2
                        }
                        let lines = try await browser.execute(
                            "return [...document.querySelectorAll('#banners .banner')].map(b => b.firstChild.textContent)",
                            as: [String].self)
                        #expect(
                            lines == ["Openverse is having trouble right now.", "Couldn’t reach iTunes."],
                            "one line per service, iTunes once, in section order")
                        #expect(try await browser.findAll("#banners .banner button").count == 2, "each has Try again")
                        #expect(try await browser.findAll("#banners [role=alert]").isEmpty, "calm, not alarms")
                        #expect(try await browser.sections().map(\.id) == ["pixabay", "flickr", "wikimedia"])
                        let page = try await browser.text(of: "body")
                        #expect(!page.contains("TESSERA_") && !page.contains("_KEY"), "no setting's name in the page")
                        #expect(!page.contains("Other results below"))

                        // Try again asks again.
                        let asked = app.standIns.openverse.state.requests.count { $0["q"] == "dog" }
                        try await browser.waitFor("#banners .banner button").click()
                        try await browser.waitUntil("Openverse asked again") {
                            app.standIns.openverse.state.requests.count { $0["q"] == "dog" } > asked
                        }
                        try await browser.waitUntil("the lines back after trying again", timeout: .seconds(20)) {
                            try await browser.findAll("#banners .banner").count == 2
                        }
                        try await browser.saveScreenshot(named: "failed-services-\(size.width)x\(size.height)")
                        #expect(try await browser.consoleErrorMessages() == [])
                    }
                }
            }
        }
    }

    @Test func nothingFoundSaysSoEvenWhenAServiceFailed() async throws {
        try await Self.withITunesUnreachable { setting in
            try await WebApp.run(
                configure: { standIns in for standIn in standIns.list { standIn.state.corpus.set("dog", total: 0) } },
                setting: setting
            ) { app in
                for size in phoneAndDesktop {
                    try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                        try await browser.open(app, "/search?q=dog&scope=all")
                        try await browser.waitUntil("the empty state", timeout: .seconds(20)) {
                            try await browser.find("#results .empty") != nil
                        }
                        #expect(try await browser.text(of: "#results .empty") == "No results for “dog”.")
                        #expect(try await browser.text(of: "#banners").contains("Couldn’t reach iTunes."))
                        #expect(try await browser.findAll("#results section").isEmpty, "no empty headers")
                        #expect(try await browser.consoleErrorMessages() == [])
                    }
                }
            }
        }
    }

    @Test func sectionsThatOnlyRepeatEarlierOnesDoNotShowAndTheCountsMatch() async throws {
        // The stand-in answers every iTunes section with the same items: Music, Apps and Books repeat Movies.
        try await WebApp.run { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await Self.openMixSettled(browser, app)
                    let shown = try await browser.sections().map(\.id)
                    #expect(shown == ["pixabay", "flickr", "openverse", "wikimedia", "movies"], "\(shown)")
                    let emptyStrips = try await browser.execute(
                        "return document.querySelectorAll('#results section .strip:not(:has(.tile:not(.skeleton)))').length"
                    )
                    #expect(emptyStrips.int == 0, "no header over an empty row")
                    // Openverse's results are copies of Flickr's photos: each picture is one tile, and the summary
                    // counts every result and says how many copies went into other tiles.
                    try await Self.expectEveryResultDrawnOrFolded(browser)
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    /// Safari has no `requestIdleCallback`, which draws the rows' tails and folds the copies in Chromium: a timer
    /// stands in for it (dom.js), so the rows still fill and the copies still fold.
    @Test func withoutIdleCallbacksTheRowsStillFillAndTheCopiesFold() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.cdp(
                    "Page.addScriptToEvaluateOnNewDocument",
                    ["source": "delete window.requestIdleCallback; delete window.cancelIdleCallback;"])
                try await Self.openMixSettled(browser, app)
                #expect(try await browser.execute("return typeof requestIdleCallback").string == "undefined")
                try await Self.expectEveryResultDrawnOrFolded(browser)
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    /// Waits until every result of "mix" is a tile but the copies folded into another's (rows draw what the window
    /// shows first and the rest when the page is idle, tails.js; copies fold when it is idle too), and checks the
    /// summary says so.
    static func expectEveryResultDrawnOrFolded(_ browser: Browser) async throws {
        try await browser.waitUntil("the summary") {
            try await browser.text(of: "#summary").contains("shown with their pictures")
        }
        let counts: @Sendable () async throws -> (tiles: Int, summary: String, numbers: [Int]) = {
            let summary = try await browser.text(of: "#summary")
            let numbers = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            return (try await browser.tileCount(), summary, numbers)
        }
        try await browser.waitUntil("a tile for every result but the folded copies") {
            let (tiles, _, numbers) = try await counts()
            return numbers.count == 3 && numbers[0] == tiles + numbers[2]
        }
        let (tiles, summary, numbers) = try await counts()
        #expect(numbers.count == 3 && numbers[0] == tiles + numbers[2], "\(tiles) tiles: \(summary)")
        #expect(
            summary
                == "\(numbers.first ?? 0) loaded from 5 sections · \(numbers.last ?? 0) copies shown with their pictures"
        )
    }

    @Test func aTagThatMatchesNothingSaysSoAndLeavesNoEmptyHeaders() async throws {
        try await WebApp.run { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await Self.openMixSettled(browser, app)
                    #expect(try await browser.isHidden("#filter-empty"))
                    try await browser.waitFor("#tag-filter").sendKeys("zzz")
                    try await browser.waitUntil("the empty filter message") {
                        try await !browser.isHidden("#filter-empty")
                    }
                    #expect(try await browser.text(of: "#filter-empty-text") == "Nothing here is tagged “zzz”.")
                    let shown = try await browser.execute(
                        "return document.querySelectorAll('#results section:not([hidden])').length")
                    #expect(shown.int == 0, "no header is left over nothing")

                    // A tag some sections have: only those show.
                    try await browser.waitFor("#filter-clear").click()
                    try await browser.waitUntil("the sections back") {
                        try await browser.execute(
                            "return document.querySelectorAll('#results section:not([hidden])').length"
                        ).int == 5
                    }
                    #expect(try await browser.isHidden("#filter-empty"))
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    /// "mix" in All, once its five sections with content have all arrived.
    static func openMixSettled(_ browser: Browser, _ app: WebApp) async throws {
        try await browser.open(app, "/search?q=mix&scope=all")
        try await browser.waitUntil("every section to settle", timeout: .seconds(20)) {
            let sections = try await browser.sections()
            return sections.count == 5 && sections.allSatisfy { !$0.pending }
        }
    }

}
