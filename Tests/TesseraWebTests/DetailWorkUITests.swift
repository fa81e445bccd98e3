import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// The detail view doing the work a person came for: the credit and what the licence allows on screen,
/// previous/next through the results, tags that filter, a metadata sheet saying each thing once, a page of
/// its own for an item that is gone, and a double tap that stays zoomed.
@Suite("Detail view's work in a browser", .chromedriver, .serialized)
struct DetailWorkUITests {
    private static func alt(_ browser: Browser, tile index: Int) async throws -> String {
        try await browser.execute(
            "return document.querySelectorAll('#results .tile img')[arguments[0]].alt", [JSONValue(index)]
        ).string ?? ""
    }

    private static func itemOfTile(_ browser: Browser, _ index: Int) async throws -> String {
        try await browser.execute(
            "return document.querySelectorAll('#results .tile a[data-item]')[arguments[0]].dataset.item",
            [JSONValue(index)]
        ).string ?? ""
    }

    @Test(arguments: phoneAndDesktop.map { [$0.width, $0.height, $0.mobile ? 1 : 0] })
    func previousAndNextWalkTheResultsAndTheCreditIsOnScreen(size: [Int]) async throws {
        let mobile = size[2] == 1
        try await WebApp.run { app in
            try await withBrowser(width: size[0], height: size[1], mobile: mobile) { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                try await browser.waitForTiles(atLeast: 20)
                let second = try await Self.alt(browser, tile: 1)
                try await browser.waitFor("#results .tile:nth-child(2) a").click()
                try await browser.waitUntil("the detail") { try await browser.text(of: "#detail-title") == second }

                let credit = try await browser.text(of: "#detail-credit")
                #expect(
                    credit.hasPrefix("“\(second)” by Creator 1 is licensed under the Pixabay Content License."))
                let reuse = try await browser.text(of: "#detail-reuse-label")
                #expect(reuse == "Pixabay Content License: you may reuse it freely")
                #expect(try await !browser.isHidden("#detail-prev"))
                #expect(try await !browser.isHidden("#detail-next"))

                // Next: by the arrow key on a desktop, by a swipe on a phone.
                let third = try await Self.alt(browser, tile: 2)
                if mobile {
                    try await browser.waitUntil("the image") { try await browser.isHidden("#stage-spinner") }
                    try await browser.swipe(on: try await browser.waitFor("#stage"), dx: -150)
                } else {
                    try await browser.pressKeys(Key.right)
                }
                try await browser.waitUntil("the next result") { try await browser.text(of: "#detail-title") == third }
                let thirdID = try await Self.itemOfTile(browser, 2)
                let native = String(thirdID.split(separator: ":", maxSplits: 1)[1])
                #expect(try await browser.currentURL == app.url("/item/pixabay/\(native)"))

                // Back twice to the first result, which has nothing before it.
                try await browser.waitFor("#detail-prev").click()
                try await browser.waitUntil("the second again") {
                    try await browser.text(of: "#detail-title") == second
                }
                try await browser.waitFor("#detail-prev").click()
                let first = try await Self.alt(browser, tile: 0)
                try await browser.waitUntil("the first") { try await browser.text(of: "#detail-title") == first }
                #expect(try await browser.isHidden("#detail-prev"))

                // Stepping replaced the address: closing returns to the results, to the tile last shown.
                try await browser.waitFor("#detail-close").click()
                try await browser.waitUntil("the results") { try await browser.isHidden("#detail") }
                #expect(try await browser.currentURL == app.url("/search?q=fox&scope=pixabay"))
                let firstID = try await Self.itemOfTile(browser, 0)
                #expect(try await browser.activeElement()?.attribute("data-item") == firstID)
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func aTagFiltersTheResultsAndTheMetadataSaysEachThingOnce() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                try await browser.waitForTiles(atLeast: 20)
                try await browser.waitFor("#results .tile:nth-child(1) a").click()
                let tag = try await browser.waitFor("#detail-tags a")
                let name = try await tag.text

                try await browser.waitFor("#detail-actions [data-action=metadata]").click()
                try await browser.waitUntil("the metadata sheet") {
                    try await browser.execute("return document.querySelector('#metadata-sheet').open").bool == true
                }
                let labels = try await browser.execute(
                    "return [...document.querySelectorAll('#metadata-list dt')].map(d => d.textContent)",
                    as: [String].self)
                #expect(Set(labels).count == labels.count, "no label twice: \(labels)")
                #expect(labels.filter { $0.hasPrefix("Size") }.count == 1, "\(labels)")
                let size = try await browser.execute(
                    """
                    const rows = [...document.querySelectorAll('#metadata-list dt')];
                    const row = rows.find(d => d.textContent.startsWith('Size'));
                    return [row.textContent, row.nextElementSibling.textContent]
                    """, as: [String].self)
                // The stand-in's originals are larger than the 1,280 px Pixabay lets others show.
                #expect(size[0] == "Size here" && size[1].contains("the original is on its page"), "\(size)")
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the sheet to close") {
                    try await browser.execute("return document.querySelector('#metadata-sheet').open").bool == false
                }

                try await tag.click()
                try await browser.waitUntil("the filtered results") { try await browser.isHidden("#detail") }
                let query = try #require(URLComponents(string: try await browser.currentURL)?.queryItems)
                #expect(query.first { $0.name == "tag" }?.value == name)
                #expect(try await browser.execute("return document.querySelector('#tag-filter').value").string == name)
                let untagged = try await browser.execute(
                    """
                    return [...document.querySelectorAll('#results .tile')]
                      .filter(t => !t.hidden && !t.tags.includes(arguments[0])).length
                    """, [.string(name.lowercased())]
                ).double
                #expect(untagged == 0, "only results with the tag show")
                #expect(try await browser.tileCount(visibleOnly: true) > 0)
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test(arguments: phoneAndDesktop.map { [$0.width, $0.height, $0.mobile ? 1 : 0] })
    func anItemThatIsGoneHasAPageOfItsOwn(size: [Int]) async throws {
        try await WebApp.run { app in
            try await withBrowser(width: size[0], height: size[1], mobile: size[2] == 1) { browser in
                try await browser.open(app, "/item/pixabay/999999999")
                try await browser.waitUntil("the not-found page") { try await !browser.isHidden("#detail-missing") }
                #expect(try await browser.text(of: "#detail-title") == "Not found")
                #expect(try await browser.text(of: "#detail-missing-text").hasPrefix("Pixabay no longer has this item"))
                #expect(try await browser.waitFor("#stage").cssValue("display") == "none", "no empty image area")
                #expect(try await browser.activeElement()?.text == "Search for something else")
                try await browser.waitFor("#detail-missing a").click()
                try await browser.waitUntil("the start page") { try await browser.currentURL == app.url("/") }
                #expect(try await browser.isHidden("#detail"))
                // The one console line allowed: Chromium's own for the 404 the app asked for.
                #expect(try await browser.consoleErrorMessages().allSatisfy { $0.contains("404") })
            }
        }
    }

    @Test func aDoubleTapZoomsInAndStaysZoomed() async throws {
        try await WebApp.run { app in
            try await withBrowser(width: 390, height: 844, mobile: true) { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                try await browser.waitForTiles(atLeast: 1)
                try await browser.waitFor("#results .tile:nth-child(1) a").click()
                let stage = try await browser.waitFor("#stage")
                try await browser.waitUntil("the image") { try await browser.isHidden("#stage-spinner") }
                try await browser.doubleTap(on: stage)
                try await browser.waitUntil("zoomed in") { try await stage.attribute("data-scale") == "2.50" }
                // Whatever the browser fires after a double tap has had its time by now.
                try await Task.sleep(for: .seconds(1))
                #expect(try await stage.attribute("data-scale") == "2.50", "it did not zoom back out")
                try await browser.doubleTap(on: stage)
                try await browser.waitUntil("zoomed out again") { try await stage.attribute("data-scale") == "1.00" }
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }
}
