import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// The filter bar (docs/filters.md, docs/web.md): chips on a laptop, a sheet on a phone, every choice in the
/// address and sent with the search; the stand-ins honour the native parameters, so what they were asked and
/// what shows can both be checked.
@Suite("Filter bar in a browser", .chromedriver, .serialized)
struct FilterBarUITests {
    /// "fox" on Pixabay: three wide pictures and three tall ones, so an orientation changes what shows.
    private static func foxes(_ standIns: StandInSet) {
        let records = (1...6).map { index in
            let tall = index > 3
            return FakeRecord(
                number: 500 + index, title: tall ? "tall fox \(index)" : "wide fox \(index)", tags: ["fox"],
                creator: "Creator", width: tall ? 1200 : 1800, height: tall ? 1800 : 1200)
        }
        standIns.pixabay.state.corpus.set("fox", records: records)
    }

    @Test func choicesGoToTheAddressAndTheSearchAndBackReloadAndClearAllFollow() async throws {
        try await WebApp.run(configure: Self.foxes) { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await browser.open(app, "/search?q=fox&scope=pixabay")
                    try await browser.waitForTiles(atLeast: 6, loaded: false)
                    #expect(try await browser.isHidden("#filter-bar .filter-clear"), "nothing to clear yet")

                    // Portrait: the address says so, Pixabay is asked for vertical pictures, only tall ones show.
                    try await browser.chooseFilter("orientation", "portrait", mobile: size.mobile)
                    try await browser.waitUntil("the tall foxes only") {
                        try await browser.tileIDs() == ["pixabay:504", "pixabay:505", "pixabay:506"]
                    }
                    #expect(try await browser.currentURL == app.url("/search?q=fox&scope=pixabay&orientation=portrait"))
                    let asked = app.standIns.pixabay.state.requests.filter { $0["q"] == "fox" }
                    #expect(asked.contains { $0["orientation"] == "vertical" }, "Pixabay applied it itself")
                    #expect(try await browser.filterPressed("orientation") == ["portrait"])
                    #expect(try await browser.chipLabel("orientation") == "Orientation: Portrait")

                    // A second filter: both in the address and in Pixabay's request.
                    try await browser.chooseFilter("type", "photo", mobile: size.mobile)
                    try await browser.waitUntil("both filters in the address") {
                        try await browser.currentURL
                            == app.url("/search?q=fox&scope=pixabay&orientation=portrait&type=photo")
                    }
                    try await browser.waitUntil("Pixabay asked for photos") {
                        app.standIns.pixabay.state.requests.contains {
                            $0["q"] == "fox" && $0["image_type"] == "photo" && $0["orientation"] == "vertical"
                        }
                    }
                    try await browser.waitForTiles(atLeast: 3, loaded: false)

                    // Reload keeps both choices.
                    try await browser.refresh()
                    try await browser.waitUntil("the app to start again") {
                        try await browser.execute("return document.documentElement.dataset.ready === 'true'").bool
                            == true
                    }
                    try await browser.waitForTiles(atLeast: 3, loaded: false)
                    #expect(try await browser.filterPressed("orientation") == ["portrait"])
                    #expect(try await browser.filterPressed("type") == ["photo"])
                    #expect(try await browser.tileIDs() == ["pixabay:504", "pixabay:505", "pixabay:506"])

                    // Back: the filters before the last choice, shown in the bar too.
                    try await browser.back()
                    try await browser.waitUntil("the address without the type") {
                        try await browser.currentURL == app.url("/search?q=fox&scope=pixabay&orientation=portrait")
                    }
                    try await browser.waitUntil("the bar without the type") {
                        try await browser.filterPressed("type").isEmpty
                    }
                    #expect(try await browser.filterPressed("orientation") == ["portrait"])
                    try await browser.back()
                    try await browser.waitUntil("every fox again") { try await browser.tileCount() == 6 }
                    #expect(try await browser.currentURL == app.url("/search?q=fox&scope=pixabay"))
                    #expect(try await browser.filterPressed("orientation").isEmpty)

                    // Clear all takes every filter off at once.
                    try await browser.chooseFilter("orientation", "landscape", mobile: size.mobile)
                    try await browser.chooseFilter("size", "large", mobile: size.mobile)
                    try await browser.waitUntil("two filters") {
                        try await browser.currentURL.contains("orientation=landscape&size=large")
                    }
                    try await browser.waitUntil("nothing large enough") {
                        try await browser.text(of: "#results .empty") == "No results for “fox”."
                    }
                    try await browser.clearAllFilters(mobile: size.mobile)
                    try await browser.waitUntil("every fox after Clear all") { try await browser.tileCount() == 6 }
                    #expect(try await browser.currentURL == app.url("/search?q=fox&scope=pixabay"))
                    #expect(try await browser.isHidden("#filter-bar .filter-clear"))
                    if size.mobile {
                        // The sheet, seen whole; Escape closes it.
                        try await browser.waitFor("#filter-bar .filter-open").click()
                        try await browser.waitFor("#filter-sheet[open]")
                        try await browser.saveScreenshot(named: "filters-sheet-\(size.width)x\(size.height)")
                        try await browser.pressKeys(Key.escape)
                        try await browser.waitUntil("the sheet closed by Escape") {
                            try await browser.find("#filter-sheet[open]") == nil
                        }
                    }
                    try await browser.saveScreenshot(named: "filters-\(size.width)x\(size.height)")
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    @Test func theSectionsThatCannotApplyAFilterAreNamedInOneSentence() async throws {
        try await WebApp.run { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await browser.open(app, "/search?q=mix&scope=all")
                    try await browser.waitUntil("the sections", timeout: .seconds(20)) {
                        try await browser.sections().contains { $0.id == "flickr" && !$0.pending }
                    }
                    let flickrAsked = app.standIns.flickr.state.requests.count { $0["text"] == "mix" }
                    try await browser.chooseFilter("color", "red", mobile: size.mobile)
                    try await browser.waitUntil("one sentence for the sections left out", timeout: .seconds(20)) {
                        try await browser.text(of: "#left-out")
                            == "Flickr, Openverse, Wikimedia Commons and the store sections can’t filter by colour."
                    }
                    #expect(try await browser.currentURL == app.url("/search?q=mix&scope=all&color=red"))
                    // Pixabay filters by colour itself (its stand-in records the colour): its results show.
                    try await browser.waitUntil("Pixabay's results", timeout: .seconds(20)) {
                        try await browser.sections().contains { $0.id == "pixabay" && !$0.pending }
                    }
                    #expect(app.standIns.pixabay.state.requests.contains { $0["q"] == "mix" && $0["colors"] == "red" })
                    #expect(
                        app.standIns.flickr.state.requests.count { $0["text"] == "mix" } == flickrAsked,
                        "Flickr is not asked for what it cannot filter")
                    #expect(try await browser.findAll("#results section[data-section=flickr]").isEmpty)
                    #expect(try await browser.findAll("#banners .banner").isEmpty, "a reason, not a failure")
                    try await browser.waitUntil("the summary counts sections with results only") {
                        let tiles = try await browser.tileCount()
                        return try await browser.text(of: "#summary") == "\(tiles) loaded from 1 section"
                    }

                    // A licence Pixabay does not filter by: Tessera checks it, and the section says so discreetly.
                    try await browser.clearAllFilters(mobile: size.mobile)
                    try await browser.chooseFilter("license", "commercial", mobile: size.mobile)
                    try await browser.waitUntil("the licence in the address") {
                        try await browser.currentURL == app.url("/search?q=mix&scope=all&license=commercial")
                    }
                    try await browser.waitUntil("Pixabay's note", timeout: .seconds(20)) {
                        try await browser.text(of: "#results section[data-section=pixabay] .checked")
                            == "Licence checked by Tessera"
                    }
                    try await browser.saveScreenshot(named: "filters-unsupported-\(size.width)x\(size.height)")
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    @Test func theBarIsReachableByKeyAndEveryChoiceHasAName() async throws {
        try await WebApp.run(configure: Self.foxes) { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                try await browser.waitForTiles(atLeast: 6, loaded: false)
                let unnamed = try await browser.execute(
                    """
                    return [...document.querySelectorAll('button[data-filter]')]
                      .filter(b => !(b.getAttribute('aria-label') || b.textContent).trim()).length
                    """)
                #expect(unnamed.int == 0, "every choice, swatches too, has a name")
                #expect(
                    try await browser.execute(
                        "return document.querySelectorAll('#filter-panel-color button[data-filter=color]').length"
                    ).int == 14, "Pixabay's twelve colours, black and white, and transparent")

                // Enter on a chip opens its panel at its first choice; Escape closes it back onto the chip.
                try await browser.execute("document.querySelector('.chip[data-chip=color]').focus()")
                try await browser.pressKeys(Key.enter)
                try await browser.waitUntil("the colour panel open at its first choice") {
                    try await browser.execute("return document.activeElement.dataset.value").string == "red"
                }
                try await browser.saveScreenshot(named: "filters-colour-panel")
                try await browser.pressKeys(Key.tab + Key.enter)
                try await browser.waitUntil("orange in the address") {
                    try await browser.currentURL == app.url("/search?q=fox&scope=pixabay&color=orange")
                }
                #expect(try await browser.isHidden("#filter-panel-color"), "a single choice closes its panel")
                #expect(try await browser.execute("return document.activeElement.dataset.chip").string == "color")
                try await browser.pressKeys(Key.enter)
                try await browser.waitUntil("the panel open again") {
                    try await !browser.isHidden("#filter-panel-color")
                }
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the panel closed by Escape") {
                    try await browser.isHidden("#filter-panel-color")
                }
                #expect(try await browser.execute("return document.activeElement.dataset.chip").string == "color")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }
}

/// The filter bar as a person uses it: through the chips on a laptop, through the sheet on a phone.
extension Browser {
    func chooseFilter(_ name: String, _ value: String, mobile: Bool) async throws {
        let option = "button[data-filter=\"\(name)\"][data-value=\"\(value)\"]"
        if mobile {
            try await waitFor("#filter-bar .filter-open").click()
            try await waitFor("#filter-sheet[open] \(option)").click()
            try await waitFor("#filter-sheet .sheet-foot .primary").click()
            try await waitUntil("the sheet closed") {
                try await self.execute("return document.querySelector('#filter-sheet').open").bool == false
            }
        } else {
            if try await isHidden("#filter-panel-\(name)") {
                try await waitFor("#filter-bar .chip[data-chip=\"\(name)\"]").click()
            }
            try await waitFor("#filter-panel-\(name) \(option)").click()
        }
    }

    func clearAllFilters(mobile: Bool) async throws {
        if mobile {
            try await waitFor("#filter-bar .filter-open").click()
            try await waitFor("#filter-sheet[open] .sheet-foot .filter-clear").click()
            try await waitFor("#filter-sheet .sheet-foot .primary").click()
        } else {
            try await waitFor("#filter-bar > .filter-clear").click()
        }
    }

    /// The ids of the result tiles, sorted (the stand-in's Pixabay titles are its tags, the same for every fox).
    func tileIDs() async throws -> [String] {
        try await execute(
            "return [...document.querySelectorAll('#results .tile:not(.skeleton)')].map(t => t.dataset.id)",
            as: [String].self
        ).sorted()
    }

    /// The values of filter `name` shown as chosen (the bar's own buttons; the sheet shows the same).
    func filterPressed(_ name: String) async throws -> [String] {
        try await execute(
            """
            return [...document.querySelectorAll('#filter-bar button[data-filter="' + arguments[0] + '"]')]
              .filter(b => b.getAttribute('aria-pressed') === 'true').map(b => b.dataset.value)
            """, [.string(name)], as: [String].self)
    }

    /// What the chip of `name` says (kept current on a phone too, where the chips are folded into the sheet).
    func chipLabel(_ name: String) async throws -> String {
        try await execute(
            "return document.querySelector('.chip[data-chip=\"' + arguments[0] + '\"]').firstChild.textContent",
            [.string(name)]
        ).string ?? ""
    }
}
