import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// The search screen and results in headless Chromium, against the real server and stand-in providers.
@Suite("Search and results in a browser", .chromedriver, .serialized)
struct SearchUITests {
    @Test func aSearchShowsTwentyTilesAndScrollingLoadsEachPageOnce() async throws {
        try await WebApp.run { app in
            try await withBrowser(width: 390, height: 844, mobile: true) { browser in
                try await browser.open(app, "/")
                let field = try await browser.waitFor("input[role=searchbox][aria-label=Search]")
                try await browser.execute("document.querySelector('#scope').value = 'pixabay'")
                try await field.sendKeys("fox" + Key.enter)
                try await browser.waitForTiles(atLeast: 20)
                #expect(try await browser.currentURL == app.url("/search?q=fox&scope=pixabay"))
                let firstPage = app.standIns.pixabay.state.requests.filter { $0["q"] == "fox" }
                #expect(firstPage.first?["page"] == "1")

                // Scroll to the end until all 45 results are there: pages 2 and 3 come as the end nears.
                try await browser.waitUntil("all 45 results after scrolling", timeout: .seconds(20)) {
                    try await browser.execute("window.scrollTo(0, document.body.scrollHeight)")
                    return try await browser.tileCount() == 45
                }
                try await browser.waitUntil("the end of results") { try await !browser.isHidden("#end") }
                #expect(try await browser.text(of: "#end") == "All 45 loaded.")
                let pages = app.standIns.pixabay.state.requests.filter { $0["q"] == "fox" }.compactMap { $0["page"] }
                #expect(pages == ["1", "2", "3"], "each page asked for once, in order")
                let ids = try await browser.execute(
                    "return [...document.querySelectorAll('#results .tile')].map(t => t.dataset.id)", as: [String].self)
                #expect(Set(ids).count == ids.count, "no tile twice")
                #expect(try await browser.isHidden("#load-more"), "nothing more to load")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func allShowsSectionsInTheFixedOrderWhateverOrderTheyArriveIn() async throws {
        // Flickr's answer is held until Pixabay's is on screen, then let go: the order of arrival is the test's,
        // however slow the machine (the source timeout is far beyond the hold).
        try await WebApp.run(
            configure: { standIns in
                standIns.flickr.state.setDelay(.seconds(60), forQuery: "mix")
                standIns.openverse.state.setBehavior(.serverError, forQuery: "mix")
            }, setting: ["TESSERA_SOURCE_TIMEOUT": "90"]
        ) { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=mix&scope=all")
                // Pixabay answers at once, Flickr stalls: Pixabay's strip is filled while Flickr's waits in place.
                try await browser.waitUntil("Pixabay's section to arrive") {
                    try await browser.sections().first { $0.id == "pixabay" }?.pending == false
                }
                let early = try await browser.sections()
                #expect(early.first { $0.id == "flickr" }?.pending == true, "Flickr is still on its way")
                app.standIns.flickr.state.setDelay(.zero, forQuery: "mix")
                try await browser.waitUntil("Flickr's section to arrive", timeout: .seconds(10)) {
                    try await browser.sections().allSatisfy { !$0.pending }
                }
                let order = try await browser.sections().map(\.id)
                // The stand-in gives every iTunes section the same items: Music, Apps and Books only repeat Movies
                // and show nothing new, so they do not show (SearchStatesUITests has the details).
                #expect(order == ["pixabay", "flickr", "wikimedia", "movies"])
                #expect(
                    early.map(\.id).filter { order.contains($0) } == order,
                    "what was on screen before Flickr arrived kept its order")

                let headers = try await browser.execute(
                    "return [...document.querySelectorAll('#results section h2')].map(h => h.textContent)",
                    as: [String].self)
                #expect(headers == ["Pixabay", "Flickr", "Wikimedia Commons", "Movies"])
                #expect(try await browser.findAll("#results section a[href^='/search?q=mix&scope=']").count == 4)
                let banner = try await browser.text(of: "#banners .banner")
                #expect(banner.contains("Openverse"), "the failed source is named: \(banner)")
                #expect(try await browser.find("#results section[data-section=openverse]") == nil)

                try await browser.saveScreenshot(named: "all-sections-1280x800")
                // "See all" switches to that section's own grid.
                try await browser.waitFor("#results section[data-section=flickr] .section-head a").click()
                try await browser.waitForTiles(atLeast: 20)
                #expect(try await browser.currentURL == app.url("/search?q=mix&scope=flickr"))
            }
        }
    }

    @Test func anAnswerForAQueryTheUserHasLeftIsDropped() async throws {
        try await WebApp.run(configure: { standIns in
            standIns.pixabay.state.setDelay(.milliseconds(1500), forQuery: "slow")
        }) { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=start&scope=pixabay")
                try await browser.waitForTiles(atLeast: 20)
                let field = try await browser.waitFor("#q")
                try await field.clear()
                try await field.sendKeys("slow" + Key.enter)
                try await browser.waitUntil("the slow search to reach the provider") {
                    app.standIns.pixabay.state.requests.contains { $0["q"] == "slow" }
                }
                try await field.clear()
                try await field.sendKeys("quick" + Key.enter)
                try await browser.waitUntil("the quick results") {
                    let titles = try await browser.tileTitles()
                    return titles.count >= 20 && titles.allSatisfy { $0.lowercased().contains("quick") }
                }
                // Wait past the slow answer: it must not replace or join what is shown.
                try await Task.sleep(for: .milliseconds(2000))
                let titles = try await browser.tileTitles()
                #expect(titles.count >= 20)
                #expect(titles.allSatisfy { $0.lowercased().contains("quick") }, "\(titles.prefix(3))")
                #expect(try await browser.currentURL == app.url("/search?q=quick&scope=pixabay"))
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func theTagFilterAndAllTagsCountTheLoadedItems() async throws {
        try await WebApp.run(configure: { standIns in standIns.pixabay.state.corpus.set("tagged", total: 20) }) { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=tagged&scope=pixabay")
                try await browser.waitForTiles(atLeast: 20)
                try await browser.waitUntil("the end of results") { try await !browser.isHidden("#end") }
                let filter = try await browser.waitFor("#tag-filter")
                try await filter.sendKeys("BL")
                try await browser.waitUntil("7 tiles tagged bl…") {
                    try await browser.tileCount(visibleOnly: true) == 7
                }
                try await filter.sendKeys("ue")
                #expect(try await browser.tileCount(visibleOnly: true) == 7)
                #expect(try await browser.currentURL == app.url("/search?q=tagged&scope=pixabay&tag=blue"))

                try await browser.waitFor("#all-tags").click()
                try await browser.waitUntil("the All tags sheet") {
                    try await browser.execute("return document.querySelector('#tags-sheet').open").bool == true
                }
                let counts = try await browser.execute(
                    """
                    return [...document.querySelectorAll('#tags-list button')]
                      .map(b => b.dataset.tag + ' ' + b.querySelector('.n').textContent)
                    """, as: [String].self)
                #expect(counts == ["sample 20", "tagged 20", "blue 7", "red 7", "green 6"])
                try await browser.waitFor("#tags-list button[data-tag=green]").click()
                try await browser.waitUntil("6 tiles tagged green") {
                    try await browser.tileCount(visibleOnly: true) == 6
                }
                #expect(try await browser.execute("return document.querySelector('#tags-sheet').open").bool == false)
                #expect(try await filter.property("value").string == "green")
                #expect(try await browser.text(of: "#summary").contains("6 tagged “green”"))
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func backAndForwardRestoreSearchesAndLayoutIsRemembered() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=fox&scope=flickr")
                try await browser.waitForTiles(atLeast: 20)
                let field = try await browser.waitFor("#q")
                try await field.clear()
                try await field.sendKeys("cat" + Key.enter)
                try await browser.waitUntil("cat results") { try await browser.tileTitles().first == "cat 1" }

                try await browser.back()
                try await browser.waitUntil("fox results again") { try await browser.tileTitles().first == "fox 1" }
                #expect(try await field.property("value").string == "fox")
                try await browser.forward()
                try await browser.waitUntil("cat results again") { try await browser.tileTitles().first == "cat 1" }
                #expect(try await field.property("value").string == "cat")

                // List rows show title, creator, source and size; the choice survives a reload.
                try await browser.waitFor("#view-list").click()
                #expect(try await browser.find("#results ul.tiles.list") != nil)
                let row = try await browser.text(of: "#results .tile .row-text")
                #expect(
                    row.contains("cat 1") && row.contains("Creator 0") && row.contains("Flickr") && row.contains("×"))
                try await browser.saveScreenshot(named: "results-list-1280x800")
                try await browser.refresh()
                try await browser.waitForTiles(atLeast: 20)
                #expect(try await browser.find("#results ul.tiles.list") != nil)
                #expect(try await browser.waitFor("#view-list").attribute("aria-pressed") == "true")
                try await browser.waitFor("#view-grid").click()
                #expect(try await browser.find("#results ul.tiles.list") == nil)
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func theKeyboardReachesEverything() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=fox&scope=flickr")
                try await browser.waitForTiles(atLeast: 20)
                try await browser.execute("document.activeElement.blur()")
                try await browser.pressKeys("/")
                #expect(try await browser.activeElement()?.attribute("id") == "q", "/ focuses the search field")

                try await browser.execute("document.querySelector('#results .tile a').focus()")
                try await browser.pressKeys(Key.right)
                let ids = try await browser.execute(
                    "return [...document.querySelectorAll('#results .tile a')].map(a => a.dataset.item)",
                    as: [String].self)
                #expect(try await browser.activeElement()?.attribute("data-item") == ids[1])
                // Down: to the tile under this one's centre in the next row (rows are justified, not columns).
                let centre = try await browser.execute(
                    "const r = document.activeElement.getBoundingClientRect(); return [r.left + r.width / 2, r.bottom]",
                    as: [Double].self)
                try await browser.pressKeys(Key.down)
                let under = try await browser.execute(
                    "const r = document.activeElement.getBoundingClientRect(); return [r.left, r.right, r.top]",
                    as: [Double].self)
                #expect(under[0] <= centre[0] && centre[0] <= under[1], "under the centre: \(under) \(centre)")
                #expect(under[2] >= centre[1], "in the next row")
                let active = try #require(try await browser.activeElement()?.attribute("data-item"))
                let index = try #require(ids.firstIndex(of: active))
                try await browser.pressKeys(Key.left)
                #expect(try await browser.activeElement()?.attribute("data-item") == ids[index - 1])

                try await browser.pressKeys(Key.enter)
                try await browser.waitUntil("the detail view") { try await !browser.isHidden("#detail") }
                #expect(try await browser.text(of: "#detail-title") == "fox \(index)")
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the results again") { try await browser.isHidden("#detail") }
                #expect(
                    try await browser.activeElement()?.attribute("data-item") == ids[index - 1],
                    "focus returns to the tile")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func badInputIsExplainedWithoutARequest() async throws {
        try await WebApp.run(without: ["PIXABAY_API_KEY"]) { app in
            try await withBrowser { browser in
                try await browser.open(app, "/")
                let pixabay = try #require(try await browser.find("#scope option[value=pixabay]"))
                #expect(try await pixabay.property("disabled").bool == true, "a source without its key is greyed out")
                #expect(try await pixabay.text == "Pixabay (off)", "no setting's name in the page")

                let before = app.standIns.list.map(\.state.requestCount).reduce(0, +)
                let field = try await browser.waitFor("#q")
                try await field.sendKeys(String(repeating: "a", count: 101) + Key.enter)
                try await browser.waitUntil("the length message") { try await !browser.isHidden("#query-message") }
                #expect(try await browser.text(of: "#query-message").contains("at most 100"))
                try await field.clear()
                try await field.sendKeys("   " + Key.enter)
                #expect(try await browser.text(of: "#query-message").contains("Type something"))
                #expect(try await browser.currentURL == app.url("/"))
                #expect(app.standIns.list.map(\.state.requestCount).reduce(0, +) == before, "nothing was asked")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func offlineIsShown() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=fox&scope=flickr")
                try await browser.waitForTiles(atLeast: 20)
                #expect(try await browser.isHidden("#offline"))
                try await browser.cdp("Network.enable")
                try await browser.cdp(
                    "Network.emulateNetworkConditions",
                    ["offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1])
                try await browser.waitUntil("the offline banner") { try await !browser.isHidden("#offline") }
                #expect(try await browser.tileCount() >= 20, "what was loaded stays")
                try await browser.cdp(
                    "Network.emulateNetworkConditions",
                    ["offline": false, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1])
                try await browser.waitUntil("the banner to go") { try await browser.isHidden("#offline") }
            }
        }
    }

    @Test func emptyResultsAStructureForAssistiveTechAndADarkTheme() async throws {
        try await WebApp.run(configure: { standIns in standIns.flickr.state.corpus.set("nothing", total: 0) }) { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=nothing&scope=flickr")
                try await browser.waitUntil("the empty state") { try await browser.find("#results .empty") != nil }
                #expect(try await browser.text(of: "#results .empty") == "No results for “nothing”.")

                try await browser.open(app, "/search?q=fox&scope=flickr")
                try await browser.waitForTiles(atLeast: 20)
                let structure = try await browser.execute(
                    """
                    const list = document.querySelector('#results [role=list]');
                    const tiles = [...list.children];
                    const buttons = [...document.querySelectorAll('button')].filter(b => b.offsetParent);
                    return {
                      tiles: tiles.length,
                      listItems: tiles.every(t => t.getAttribute('role') === 'listitem'),
                      oneLink: tiles.every(t => t.querySelectorAll('a').length === 1),
                      alt: tiles.every(t => t.querySelector('img').alt === t.querySelector('.title').textContent),
                      named: buttons.every(b => (b.getAttribute('aria-label') || b.textContent).trim().length > 0),
                      search: document.querySelector('[role=searchbox]').getAttribute('aria-label'),
                    }
                    """)
                #expect(structure["tiles"]?.int ?? 0 >= 20)
                #expect(structure["listItems"]?.bool == true)
                #expect(structure["oneLink"]?.bool == true)
                #expect(structure["alt"]?.bool == true)
                #expect(structure["named"]?.bool == true)
                #expect(structure["search"]?.string == "Search")

                let background = "return getComputedStyle(document.documentElement).backgroundColor"
                let light = try await browser.execute(background).string
                try await browser.cdp(
                    "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
                let dark = try await browser.execute(background).string
                #expect(light == "rgb(247, 247, 248)")
                #expect(dark == "rgb(16, 18, 22)")
                try await browser.saveScreenshot(named: "results-dark-1280x800")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    /// A thousand loaded results: only the images near the screen are fetched (the first six at once and
    /// first, the others lazily), tiles off screen skip rendering, every page is asked for once.
    @Test func aThousandResultsStayCheap() async throws {
        try await WebApp.run(configure: { standIns in standIns.flickr.state.corpus.set("many", total: 1000) }) { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=many&scope=flickr")
                try await browser.waitForTiles(atLeast: 20)
                try await browser.waitUntil("a thousand tiles", timeout: .seconds(90)) {
                    try await browser.execute("window.scrollTo(0, document.body.scrollHeight)")
                    return try await browser.tileCount() == 1000
                }
                let pages = app.standIns.flickr.state.requests.filter { $0["text"] == "many" }.compactMap { $0["page"] }
                #expect(pages == (1...50).map(String.init), "each of the 50 pages once, in order")
                let page = try await browser.execute(
                    """
                    const images = performance.getEntriesByType('resource').filter(e => e.name.includes('/img/'));
                    const tile = document.querySelector('#results .tile');
                    return { images: images.length, visibility: getComputedStyle(tile).contentVisibility,
                             lazy: [...document.querySelectorAll('#results .tile img')].every((i, n) => n < 6
                                 ? i.loading === 'eager' && i.fetchPriority === 'high' : i.loading === 'lazy'),
                             sized: [...document.querySelectorAll('#results .tile img')].every(i => i.width > 0 && i.height > 0) }
                    """)
                let images = page["images"]?.int ?? 0
                #expect(images > 0 && images < 300, "only images near the screen were fetched (\(images))")
                #expect(page["visibility"]?.string == "auto")
                #expect(page["lazy"]?.bool == true && page["sized"]?.bool == true)
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }
}
