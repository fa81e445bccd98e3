import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// "Only what I may use" (`license=reusable`) on the filter bar and the start page, and what the search page says
/// about what it shows (docs/web.md, docs/filters.md): one sentence for the sections a filter left out, row
/// headers that never count more than their row holds, a summary and a list's end that say what they count.
@Suite("Only what you may use in a browser", .chromedriver, .serialized)
struct OnlyWhatYouMayUseUITests {
    static let storesLine =
        "Only what you may use: the store sections (Movies, Music, Apps, Books) are left out, as nothing there may "
        + "be reused."
    static let switchOnBar = "#filter-bar button[data-value=reusable]"

    @Test func theSwitchIsOnTheBarInTheAddressAndRememberedInThisBrowser() async throws {
        try await WebApp.run { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await SearchStatesUITests.openMixSettled(browser, app)
                    #expect(try await browser.pressed(Self.switchOnBar) == false)
                    #expect(try await browser.isHidden("#left-out"))
                    // On the bar itself, in its one row: beside "Filters" on a phone, the chips on a laptop.
                    let row = try await browser.execute(
                        """
                        const top = (e) => Math.round(e.getBoundingClientRect().top);
                        const chip = document.querySelector(arguments[0]);
                        const other = document.querySelector(arguments[1] ? '.filter-open' : '.chip[data-chip]');
                        return [top(chip) === top(other), chip.getBoundingClientRect().width > 0,
                          Math.round(document.querySelector('#filter-bar').getBoundingClientRect().height)];
                        """, [.string(Self.switchOnBar), .bool(size.mobile)])
                    #expect(row.array?[0] == true && row.array?[1] == true, "\(row)")
                    #expect((row.array?[2].int ?? 99) <= 50, "one row: \(row)")

                    // On: in the address, the stores left out with one line under the bar.
                    try await browser.press(Self.switchOnBar, mobile: size.mobile)
                    try await browser.waitUntil("the switch in the address") {
                        try await browser.currentURL == app.url("/search?q=mix&scope=all&license=reusable")
                    }
                    try await browser.waitUntil("the stores' line") {
                        try await browser.text(of: "#left-out") == Self.storesLine
                    }
                    #expect(try await browser.pressed(Self.switchOnBar) == true)
                    try await browser.waitUntil("the sections", timeout: .seconds(20)) {
                        let sections = try await browser.sections()
                        return !sections.isEmpty && sections.allSatisfy { !$0.pending }
                    }
                    let shown = Set(try await browser.sections().map(\.id))
                    #expect(shown.isDisjoint(with: ["movies", "music", "apps", "books"]), "\(shown)")
                    try await FailingServiceUITests.saveLightAndDark(
                        browser, "may-use-only-\(size.width)x\(size.height)")

                    // A reload keeps it; another licence value goes with it; Clear all leaves the switch alone.
                    try await browser.refresh()
                    try await browser.waitUntil("the app again") {
                        try await browser.execute("return document.documentElement.dataset.ready === 'true'").bool
                            == true
                    }
                    #expect(try await browser.pressed(Self.switchOnBar) == true)
                    try await browser.chooseFilter("license", "commercial", mobile: size.mobile)
                    try await browser.waitUntil("both licence values") {
                        try await browser.currentURL
                            == app.url("/search?q=mix&scope=all&license=reusable,commercial")
                    }
                    #expect(try await browser.chipLabel("license") == "Licence: Commercial use")
                    try await browser.clearAllFilters(mobile: size.mobile)
                    try await browser.waitUntil("the switch left on") {
                        try await browser.currentURL == app.url("/search?q=mix&scope=all&license=reusable")
                    }

                    // A fresh visit without a licence starts with the switch as it was left, on and then off.
                    try await browser.open(app, "/search?q=fox&scope=all")
                    try await browser.waitUntil("the remembered switch") {
                        try await browser.currentURL == app.url("/search?q=fox&scope=all&license=reusable")
                    }
                    try await browser.press(Self.switchOnBar, mobile: size.mobile)
                    try await browser.waitUntil("the switch off") {
                        try await browser.currentURL == app.url("/search?q=fox&scope=all")
                    }
                    try await browser.open(app, "/search?q=fox&scope=all")
                    try await browser.waitForTiles(atLeast: 6, loaded: false)
                    #expect(try await browser.currentURL == app.url("/search?q=fox&scope=all"))
                    #expect(try await browser.pressed(Self.switchOnBar) == false)
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    @Test func theStartPageOffersTheSwitchBesideTheSearchField() async throws {
        try await WebApp.run { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await browser.open(app, "/")
                    #expect(
                        try await browser.text(of: "#home h1")
                            == "Search openly licensed pictures, and see what each allows.")
                    #expect(try await browser.pressed("#home-reuse") == false)
                    #expect(try await browser.findAll("#home .examples li:not([hidden])").count == 4)
                    // Beside the search field: on its row on a laptop, right under it on a phone.
                    let place = try await browser.execute(
                        """
                        const s = document.querySelector('#home-reuse').getBoundingClientRect();
                        const q = document.querySelector(arguments[0] ? '#q' : '#search-form').getBoundingClientRect();
                        return [Math.round(s.top - q.top), Math.round(s.left - q.right), s.width];
                        """, [.bool(size.mobile)], as: [Double].self)
                    if size.mobile {
                        #expect(place[0] > 0 && place[0] < 60, "under the field: \(place)")
                    } else {
                        #expect(abs(place[0]) < 20 && place[1] > 0 && place[1] < 40, "beside the field: \(place)")
                    }

                    try await browser.press("#home-reuse", mobile: size.mobile)
                    #expect(try await browser.pressed("#home-reuse") == true)
                    let examples = try await browser.execute(
                        "return [...document.querySelectorAll('#home .examples li:not([hidden]) a')].map(a => a.href)",
                        as: [String].self)
                    #expect(examples.count == 2 && examples.allSatisfy { $0.hasSuffix("&license=reusable") })
                    try await FailingServiceUITests.saveLightAndDark(
                        browser, "start-may-use-only-\(size.width)x\(size.height)")

                    // A search from the start page goes with it; the bar shows it, the start page's switch goes.
                    try await browser.waitFor("#q").sendKeys("fox" + Key.enter)
                    try await browser.waitUntil("the search with the switch") {
                        try await browser.currentURL == app.url("/search?q=fox&scope=all&license=reusable")
                    }
                    #expect(try await browser.pressed(Self.switchOnBar) == true)
                    #expect(try await browser.isHidden("#home-reuse"))
                    try await browser.open(app, "/")
                    #expect(try await browser.pressed("#home-reuse") == true, "remembered")
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    @Test func oneSentenceSaysWhichSectionsAFilterLeftOutAndWhy() async throws {
        try await WebApp.run { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await browser.open(app, "/search?q=mix&scope=all&color=red")
                    try await browser.waitUntil("the sentence", timeout: .seconds(20)) {
                        try await browser.text(of: "#left-out")
                            == "Flickr, Openverse, Wikimedia Commons and the store sections can’t filter by colour."
                    }
                    try await browser.waitUntil("Pixabay's results") {
                        let sections = try await browser.sections()
                        return sections.map(\.id) == ["pixabay"] && sections.allSatisfy { !$0.pending }
                    }
                    #expect(try await browser.findAll("#results .filter-note").isEmpty, "not a paragraph each")
                    #expect(try await browser.findAll("#banners .banner").isEmpty, "a reason, not a failure")
                    try await browser.waitUntil("the summary counts what loaded") {
                        let tiles = try await browser.tileCount()
                        return try await browser.text(of: "#summary") == "\(tiles) loaded from 1 section"
                    }
                    try await FailingServiceUITests.saveLightAndDark(
                        browser, "left-out-\(size.width)x\(size.height)")

                    // With the switch on too: the stores for the licence, the others for the colour, one sentence.
                    try await browser.open(app, "/search?q=mix&scope=all&license=reusable&color=red")
                    try await browser.waitUntil("both reasons in one sentence", timeout: .seconds(20)) {
                        try await browser.text(of: "#left-out")
                            == "Only what you may use: the store sections (Movies, Music, Apps, Books) are left out, "
                            + "as nothing there may be reused; Flickr, Openverse and Wikimedia Commons can’t filter "
                            + "by colour."
                    }
                    #expect(try await browser.findAll("#left-out").count == 1)

                    // A store section alone under the switch: why it shows nothing.
                    try await browser.open(app, "/search?q=space&scope=movies&license=reusable")
                    try await browser.waitUntil("nothing, and why") {
                        try await browser.find("#results .empty") != nil
                    }
                    #expect(
                        try await browser.text(of: "#left-out")
                            == "Only what you may use: nothing in Movies may be reused, so it shows nothing here.")
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    /// Every row's header against its tiles, with every row's tail drawn: a number of tiles said as "N shown"
    /// is the row's; a service's own count is said in words ("45 on Flickr") and only where See all reaches more.
    @Test(arguments: ["mix", "few"])
    func noHeaderCountsMoreThanItsRowHolds(query: String) async throws {
        try await WebApp.run(configure: { $0.setTotal("few", 5) }) { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await browser.open(app, "/search?q=\(query)&scope=all")
                    try await browser.waitUntil("the copies folded", timeout: .seconds(30)) {
                        try await browser.text(of: "#summary").contains("shown with")
                    }
                    try await browser.execute(
                        "document.querySelectorAll('#results .strip').forEach(s => s.dispatchEvent(new Event('scroll')))"
                    )
                    let rows = try await browser.execute(
                        """
                        return [...document.querySelectorAll('#results section[data-section]')].map(s => [
                          s.dataset.section, s.querySelector('.count')?.textContent ?? '',
                          String(s.querySelectorAll('.tile:not(.skeleton)').length)])
                        """, as: [[String]].self)
                    #expect(!rows.isEmpty)
                    for row in rows {
                        let (text, tiles) = (row[1], Int(row[2]) ?? -1)
                        #expect(!text.contains("result"), "\(row)")
                        let number = Int(text.filter(\.isNumber)) ?? 0
                        if text.hasSuffix(" shown") {
                            #expect(number == tiles, "the row's own count: \(row)")
                        } else if !text.isEmpty {
                            #expect(text.contains(" on ") && number > tiles && query == "mix", "the service's: \(row)")
                        } else {
                            #expect(tiles == 0, "only a row whose pictures all folded says no number: \(row)")
                        }
                    }
                    try await browser.saveScreenshot(named: "row-counts-\(query)-\(size.width)x\(size.height)")
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    @Test func theEndOfAListSaysHowManyLoadedAndWhyItEnded() async throws {
        try await WebApp.run(configure: { $0.pixabay.state.corpus.set("sea", total: 520) }) { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await browser.open(app, "/search?q=fox&scope=pixabay")
                    try await browser.waitUntil("the first pages' summary") {
                        try await browser.text(of: "#summary").hasSuffix(" of 45 loaded")
                    }
                    try await Self.scrollToTheEnd(browser)
                    #expect(try await browser.text(of: "#end") == "All 45 loaded.")
                    #expect(try await browser.text(of: "#summary") == "All 45 loaded")
                    try await Self.saveBothSchemes(browser, "list-end-\(size.width)x\(size.height)")

                    // Tessera checked the licence itself, reading some of Pixabay's pages: the end says so.
                    try await browser.open(app, "/search?q=fox&scope=pixabay&license=commercial")
                    try await Self.scrollToTheEnd(browser)
                    #expect(
                        try await browser.text(of: "#end")
                            == "20 loaded: Pixabay can’t filter by licence, so Tessera checked its results itself and "
                            + "may have missed some.")
                    try await Self.saveBothSchemes(browser, "list-end-checked-\(size.width)x\(size.height)")
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
            // More than Pixabay lets anyone page through: its limit, not "the end of results".
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=sea&scope=pixabay")
                try await browser.waitUntil("the first pages' summary") {
                    try await browser.text(of: "#summary").hasSuffix("0 loaded · 520 on Pixabay")
                }
                try await Self.scrollToTheEnd(browser, timeout: .seconds(120))
                #expect(
                    try await browser.text(of: "#end")
                        == "500 loaded: Pixabay lets apps reach at most 500 results of one search.")
                #expect(try await browser.text(of: "#summary") == "500 loaded · 520 on Pixabay")
                try await Self.saveBothSchemes(browser, "list-end-limit-1280x800")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    /// Screenshots of the window as it is, light and then dark.
    static func saveBothSchemes(_ browser: Browser, _ name: String) async throws {
        for scheme in ["light", "dark"] {
            _ = try await browser.cdp(
                "Emulation.setEmulatedMedia",
                ["features": [["name": "prefers-color-scheme", "value": .string(scheme)]]])
            try await browser.saveScreenshot(named: "\(name)-\(scheme)")
        }
        _ = try await browser.cdp(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "light"]]])
    }

    static func scrollToTheEnd(_ browser: Browser, timeout: Duration = .seconds(30)) async throws {
        try await browser.waitUntil("the end of the list", timeout: timeout) {
            try await browser.execute("window.scrollTo(0, document.body.scrollHeight)")
            return try await !browser.isHidden("#end")
        }
    }
}

extension Browser {
    /// Whether the toggle button `css` says it is pressed.
    func pressed(_ css: String) async throws -> Bool {
        try await execute(
            "return document.querySelector(arguments[0])?.getAttribute('aria-pressed') === 'true'", [.string(css)]
        ).bool ?? false
    }

    /// Presses the button `css` as a person would: a finger on a phone, a click on a laptop.
    func press(_ css: String, mobile: Bool) async throws {
        let element = try await waitFor(css)
        if mobile { try await tap(on: element) } else { try await element.click() }
    }
}
