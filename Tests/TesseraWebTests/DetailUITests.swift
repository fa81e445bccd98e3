import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// The detail view in headless Chromium: opened from the results and by address, its image, credits,
/// actions and sheets; and text from the sources staying text.
@Suite("Detail view in a browser", .chromedriver, .serialized)
struct DetailUITests {
    /// The stand-in's first Pixabay item for "fox", as the API gives it.
    private func firstItem(_ app: WebApp, query: String = "fox", scope: String = "pixabay") async throws -> (
        id: String, title: String
    ) {
        try await withBrowser { browser in
            try await browser.go(to: app.url("/api/search?q=\(query)&scope=\(scope)"))
            let item = try await browser.execute(
                "return JSON.parse(document.body.innerText).sections[0].items[0]", as: ItemSummary.self)
            return (item.id, item.title)
        }
    }

    private struct ItemSummary: Decodable {
        let id: String
        let title: String
    }

    @Test func aTileOpensTheDetailAndEscapeReturnsToTheSameScrollPosition() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                try await browser.waitForTiles(atLeast: 20)
                try await browser.execute("window.scrollTo(0, 400)")
                try await browser.waitUntil("the scroll") { try await browser.execute("return scrollY").double == 400 }
                let tile = try await browser.waitFor("#results .tile:nth-child(13) a")
                let itemID = try #require(try await tile.attribute("data-item"))
                let title = try #require(
                    try await browser.execute(
                        "return document.querySelector('#results .tile:nth-child(13) img').alt"
                    ).string)
                let pagesAsked = { app.standIns.pixabay.state.requests.filter { $0["q"] == "fox" }.count }
                // Let automatic paging settle first: only what opening and closing asks for is counted.
                try await Task.sleep(for: .milliseconds(300))
                let (tilesBefore, pagesBefore) = (try await browser.tileCount(), pagesAsked())
                try await tile.click()

                try await browser.waitUntil("the preview to load") {
                    try await browser.execute(
                        """
                        const img = document.querySelector('#stage-image');
                        return img.dataset.variant === 'preview' && img.complete && img.naturalWidth > 0
                          && document.querySelector('#stage-spinner').hidden
                        """
                    ).bool == true
                }
                let native = String(itemID.split(separator: ":", maxSplits: 1)[1])
                #expect(try await browser.currentURL == app.url("/item/pixabay/\(native)"))
                #expect(try await browser.text(of: "#detail-title") == title)
                #expect(try await browser.text(of: "#detail-creator").hasPrefix("Creator "))
                #expect(try await browser.text(of: "#detail-license") == "Pixabay Content License")
                #expect(try await browser.find("#detail-page[href^='https://pixabay.com/']") != nil)

                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the results again") { try await browser.isHidden("#detail") }
                #expect(try await browser.currentURL == app.url("/search?q=fox&scope=pixabay"))
                #expect(try await browser.execute("return scrollY").double == 400, "the same scroll position")
                #expect(try await browser.activeElement()?.attribute("data-item") == itemID)
                #expect(try await browser.tileCount() == tilesBefore, "the results are as they were")
                #expect(pagesAsked() == pagesBefore, "returning asked for nothing again")

                // Back and forward move between the two as well.
                try await browser.forward()
                try await browser.waitUntil("the detail again") { try await !browser.isHidden("#detail") }
                try await browser.back()
                try await browser.waitUntil("the results again") { try await browser.isHidden("#detail") }
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func aDetailAddressWorksOnItsOwnWithMetadataAndAttribution() async throws {
        try await WebApp.run { app in
            let (id, title) = try await firstItem(app)
            let native = String(id.split(separator: ":", maxSplits: 1)[1])
            try await withBrowser { browser in
                try await browser.cdp(
                    "Browser.grantPermissions",
                    ["permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"], "origin": .string(app.base)])
                try await browser.open(app, "/item/pixabay/\(native)")
                try await browser.waitUntil("the item to load") { try await browser.text(of: "#detail-title") == title }
                try await browser.refresh()
                try await browser.waitUntil("the item after a reload") {
                    try await browser.text(of: "#detail-title") == title
                }

                try await browser.waitFor("#detail-actions [data-action=metadata]").click()
                try await browser.waitUntil("the metadata sheet") {
                    try await browser.execute("return document.querySelector('#metadata-sheet').open").bool == true
                }
                let labels = try await browser.execute(
                    "return [...document.querySelectorAll('#metadata-list dt')].map(d => d.textContent)",
                    as: [String].self)
                for label in ["Title", "Creator", "Licence", "Service", "ID", "Views", "Downloads", "Likes"] {
                    #expect(labels.contains(label), "\(label) in \(labels)")
                }
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the sheet to close") {
                    try await browser.execute("return document.querySelector('#metadata-sheet').open").bool == false
                }
                #expect(try await !browser.isHidden("#detail"), "Escape closed the sheet only")

                try await browser.waitFor("#detail-actions [data-action=copy-text]").click()
                try await browser.waitUntil("the toast") {
                    try await browser.text(of: "#toast") == "Attribution copied"
                }
                let text =
                    try await browser.executeAsync(
                        "navigator.clipboard.readText().then(arguments[0], e => arguments[0]('failed: ' + e))"
                    ).string ?? ""
                #expect(
                    text.hasPrefix("“\(title)” by Creator 0 is licensed under the Pixabay Content License."), "\(text)")
                #expect(text.contains("Source: Pixabay, https://pixabay.com/"))

                try await browser.waitFor("#detail-actions [data-action=copy-html]").click()
                try await browser.waitUntil("the HTML toast") {
                    try await browser.text(of: "#toast") == "Attribution copied as HTML"
                }
                let html =
                    try await browser.executeAsync("navigator.clipboard.readText().then(arguments[0])").string ?? ""
                #expect(html.hasPrefix("<p class=\"attribution\">“<a href=\"https://pixabay.com/"), "\(html)")
                #expect(html.contains(">the Pixabay Content License</a>"))

                // Closing a detail that was opened by its address goes to the start page.
                try await browser.waitFor("#detail-close").click()
                try await browser.waitUntil("the start page") { try await browser.currentURL == app.url("/") }
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    /// The server already turns HTML in titles into text, decoding character references on the way: a title
    /// written `&lt;img ...&gt;` arrives as the text `<img ...>`, which the page must show as such.
    @Test func textFromASourceIsShownAsTextAndNeverRun() async throws {
        let hostile = #"<img src=x onerror="window.__pwned=1">"#
        let escaped = "&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;"
        try await WebApp.run(configure: { standIns in
            standIns.flickr.state.corpus.set(
                "evil",
                records: [
                    FakeRecord(
                        number: 4242, title: escaped, tags: ["evil"], creator: #"<script>window.__pwned=2</script>"#,
                        width: 800, height: 600)
                ])
        }) { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=evil&scope=flickr")
                try await browser.waitForTiles(atLeast: 1)
                #expect(try await browser.tileTitles() == [hostile])
                #expect(try await browser.text(of: "#results .tile .caption-title") == hostile)
                try await browser.waitFor("#results .tile a").click()
                try await browser.waitUntil("the detail") { try await browser.text(of: "#detail-title") == hostile }
                #expect(try await browser.text(of: "#detail-creator").contains("window.__pwned=2"))
                try await browser.waitFor("#detail-actions [data-action=metadata]").click()
                _ = try await browser.waitFor("#metadata-sheet[open]")
                #expect(
                    try await browser.execute(
                        "return [...document.querySelectorAll('#metadata-list dd')].map(d => d.textContent)",
                        as: [String].self
                    ).contains(hostile))
                let clean = try await browser.execute(
                    """
                    return window.__pwned === undefined
                      && document.querySelectorAll('img[src="x"], script:not([src])').length === 0
                    """
                ).bool
                #expect(clean == true, "nothing from the source became an element or ran")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func zoomAndTheActionsMenu() async throws {
        try await WebApp.run { app in
            let (id, _) = try await firstItem(app)
            let native = String(id.split(separator: ":", maxSplits: 1)[1])
            try await withBrowser { browser in
                try await browser.open(app, "/item/pixabay/\(native)")
                let stage = try await browser.waitFor("#stage")
                try await browser.waitUntil("the image") { try await browser.isHidden("#stage-spinner") }
                try await stage.click()
                try await browser.pressKeys("+")
                #expect(try await stage.attribute("data-scale") == "1.50")
                try await browser.pressKeys("0")
                #expect(try await stage.attribute("data-scale") == "1.00")
                try await browser.doubleClick(on: stage)
                #expect(try await stage.attribute("data-scale") == "2.50")
                try await browser.wheel(on: stage, deltaY: 400)
                try await browser.waitUntil("zooming out with the wheel") {
                    try await stage.attribute("data-scale") == "1.37"
                }

                try await browser.contextClick(on: stage)
                try await browser.waitUntil("the actions menu") { try await !browser.isHidden("#action-menu") }
                #expect(try await browser.activeElement()?.attribute("data-action") == "download")
                try await browser.pressKeys(Key.down)
                #expect(try await browser.activeElement()?.attribute("data-action") == "share")
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the menu to close") { try await browser.isHidden("#action-menu") }
                #expect(try await !browser.isHidden("#detail"))
                #expect(try await browser.consoleErrorMessages() == [])
            }
            try await withBrowser(width: 390, height: 844, mobile: true) { browser in
                try await browser.open(app, "/item/pixabay/\(native)")
                let stage = try await browser.waitFor("#stage")
                try await browser.waitUntil("the image") { try await browser.isHidden("#stage-spinner") }
                try await browser.longPress(on: stage)
                try await browser.waitUntil("the actions menu after a long press") {
                    try await !browser.isHidden("#action-menu")
                }
            }
        }
    }

    @Test func originalDownloadAndShare() async throws {
        try await WebApp.run { app in
            // The stand-in's JPEG at every address, so the original downloads as a .jpg.
            app.standInServer.images = { _ in StandInImage.jpeg }
            let (id, _) = try await firstItem(app)
            let native = String(id.split(separator: ":", maxSplits: 1)[1])
            let downloads = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-dl-\(UUID())")
            try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: downloads) }
            try await withBrowser { browser in
                try await browser.cdp(
                    "Browser.grantPermissions",
                    ["permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"], "origin": .string(app.base)])
                try await browser.cdp(
                    "Browser.setDownloadBehavior", ["behavior": "allow", "downloadPath": .string(downloads.path)])
                try await browser.open(app, "/item/pixabay/\(native)")
                try await browser.waitUntil("the preview") {
                    try await browser.execute("return document.querySelector('#stage-image').dataset.variant").string
                        == "preview"
                }
                try await browser.waitFor("#detail-actions [data-action=original]").click()
                try await browser.waitUntil("the original") {
                    try await browser.execute("return document.querySelector('#stage-image').dataset.variant").string
                        == "original"
                }

                try await browser.waitFor("#detail-actions [data-action=download]").click()
                let expected = "fox-red-sample-pixabay-\(native).jpg"
                let file = downloads.appendingPathComponent(expected)
                try await browser.waitUntil("\(expected) in the downloads") {
                    FileManager.default.fileExists(atPath: file.path)
                }
                let bytes = try Data(contentsOf: file)
                #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF], "the original JPEG")

                // Without the Web Share API (desktop Linux), Share copies the item's address.
                let hasShare = try await browser.execute("return typeof navigator.share === 'function'").bool
                try await browser.waitFor("#detail-actions [data-action=share]").click()
                if hasShare == false {
                    try await browser.waitUntil("the toast") { try await browser.text(of: "#toast") == "Link copied" }
                    let link = try await browser.executeAsync("navigator.clipboard.readText().then(arguments[0])")
                    #expect(link.string == app.url("/item/pixabay/\(native)"))
                }
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    /// The screens at a phone's and a desktop's size, saved for people to look at (not committed).
    @Test(arguments: [(390, 844, true), (1280, 800, false)])
    func screenshots(width: Int, height: Int, mobile: Bool) async throws {
        try await WebApp.run { app in
            try await withBrowser(width: width, height: height, mobile: mobile) { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                try await browser.waitForTiles(atLeast: 12)
                #expect(try await browser.execute("return innerWidth").int == width)
                try await browser.saveScreenshot(named: "results-\(width)x\(height)")

                try await browser.open(app, "/search?q=fox&scope=all")
                try await browser.waitUntil("every section") {
                    let sections = try await browser.sections()
                    return sections.count >= 5 && sections.allSatisfy { !$0.pending }
                }
                try await browser.waitForTiles(atLeast: 12)
                try await browser.saveScreenshot(named: "all-\(width)x\(height)")

                try await browser.waitFor("#results .tile a").click()
                try await browser.waitUntil("the preview") { try await browser.isHidden("#stage-spinner") }
                try await browser.saveScreenshot(named: "detail-\(width)x\(height)")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }
}
