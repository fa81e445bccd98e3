import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// Adding a picture to a gallery that already has one that looks the same: the server refuses with
/// `near_duplicate` and the page asks (docs/web.md). Page 1's first Pixabay result and page 2's first serve
/// the same picture (and no other two do), so the gallery holding page 2's is asked about page 1's.
@Suite("Adding a picture a gallery already has, in a browser", .chromedriver, .serialized)
struct NearDuplicateUITests {
    /// Adds page 2's first result to `gallery` as the page would; answers its title.
    static let fill = """
        const [gallery, done] = arguments;
        (async () => {
          const search = await (await fetch('/api/search?q=fox&scope=pixabay&page=2')).json();
          const item = search.sections[0].items[0];
          const answer = await fetch(`/api/galleries/${gallery}/items`, { method: 'POST',
            headers: { 'content-type': 'application/json', 'x-tessera-client': 'web' }, body: JSON.stringify({ item }) });
          done(answer.ok ? item.title : 'failed: ' + await answer.text());
        })().catch((error) => done('failed: ' + error));
        """

    /// A Pixabay image address without its size (`..._150.jpg`, `_640`, `_1280`): the thumbnail the page shows and
    /// the larger copy an add stores are one picture.
    static func stem(_ path: String) -> String {
        path.lastIndex(of: "_").map { String(path[..<$0]) } ?? path
    }

    /// Page 1's and page 2's first Pixabay results, made the same picture at every size; every other address
    /// serves a picture of its own.
    static func lookAlikes(_ app: WebApp) async throws
        -> (first: [GroupsUITests.Page.Section.Result], second: [GroupsUITests.Page.Section.Result])
    {
        let first = try await GroupsUITests.page(app, "q=fox&scope=pixabay&page=1")
        let second = try await GroupsUITests.page(app, "q=fox&scope=pixabay&page=2")
        let same = Set(try [first[0], second[0]].map(GroupsUITests.upstreamPath).map(Self.stem))
        app.standInServer.images = { path in
            same.contains(Self.stem(path)) ? StandInImage.pattern(seed: 7) : StandInImage.distinct(for: path)
        }
        return (first, second)
    }

    static func dialogOpen(_ browser: Browser) async throws -> Bool {
        try await browser.execute("return document.querySelector('#neardup-dialog').open").bool == true
    }

    @Test(arguments: [(390, 844, true), (1280, 800, false)])
    func savingAsksAndCancelAddsNothing(width: Int, height: Int, mobile: Bool) async throws {
        try await WebApp.run { app in
            let (first, second) = try await Self.lookAlikes(app)
            try await withBrowser(width: width, height: height, mobile: mobile) { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                let picks = try await browser.createGallery("Picks")
                let held = try await browser.executeAsync(Self.fill, [.string(picks.id)]).string ?? ""
                try #require(!held.hasPrefix("failed"), "\(held)")
                try await browser.waitForTiles(atLeast: 3)

                // Save asks: the dialog says which picture the gallery has, and shows both.
                try await browser.waitFor("#results a[data-item='\(first[0].id)']").click()
                try await browser.waitFor("#detail-actions [data-action=add-to-gallery]").click()
                try await browser.waitFor("#picker-list [data-gallery='\(picks.id)']").click()
                try await browser.waitUntil("the question") { try await Self.dialogOpen(browser) }
                #expect(try await browser.text(of: "#neardup-title") == "Already in this gallery?")
                #expect(try await browser.text(of: "#neardup-message").contains(held))
                #expect(
                    try await browser.execute(
                        "return ['#neardup-existing', '#neardup-new'].map(s => document.querySelector(s).getAttribute('src') ?? '')",
                        as: [String].self
                    ).allSatisfy { !$0.isEmpty })
                #expect(
                    try await browser.activeElement()?.attribute("id") == "neardup-cancel", "a stray Enter adds nothing"
                )
                try await browser.saveScreenshot(named: "neardup-\(width)x\(height)")

                // Cancel adds nothing; nor does Escape, which leaves the detail view open.
                try await browser.waitFor("#neardup-cancel").click()
                try await browser.waitForToast({ $0 == "Not added to Picks" }, "Not added to Picks")
                #expect(try await browser.gallery(picks.id).items?.map(\.item.id) == [second[0].id])
                try await browser.waitFor("#detail-actions [data-action=add-to-gallery]").click()
                try await browser.waitFor("#picker-list [data-gallery='\(picks.id)']").click()
                try await browser.waitUntil("the question again") { try await Self.dialogOpen(browser) }
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the question to go") { try await !Self.dialogOpen(browser) }
                #expect(try await !browser.isHidden("#detail"))
                #expect(try await browser.gallery(picks.id).items?.map(\.item.id) == [second[0].id])

                // Add anyway adds it.
                try await browser.waitFor("#detail-actions [data-action=add-to-gallery]").click()
                try await browser.waitFor("#picker-list [data-gallery='\(picks.id)']").click()
                try await browser.waitUntil("the question once more") { try await Self.dialogOpen(browser) }
                try await browser.waitFor("#neardup-add").click()
                try await browser.waitForToast({ $0 == "Added to Picks" }, "Added to Picks")
                #expect(try await browser.gallery(picks.id).items?.map(\.item.id) == [second[0].id, first[0].id])
                #expect(try await browser.consoleErrorMessages().filter { !$0.contains("409") } == [])
            }
        }
    }

    @Test func droppingAResultOnAGalleryAsksToo() async throws {
        try await WebApp.run { app in
            let (first, second) = try await Self.lookAlikes(app)
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                let drops = try await browser.createGallery("Drops")
                let held = try await browser.executeAsync(Self.fill, [.string(drops.id)]).string ?? ""
                try #require(!held.hasPrefix("failed"), "\(held)")
                try await browser.waitForTiles(atLeast: 3)
                let tile = "#results .tile a[data-item='\(first[0].id)']"
                let target = "#gallery-panel-list [data-gallery='\(drops.id)']"

                try await browser.drag(from: tile, to: target)
                try await browser.waitUntil("the question") { try await Self.dialogOpen(browser) }
                try await browser.waitFor("#neardup-cancel").click()
                try await browser.waitForToast({ $0 == "Not added to Drops" }, "Not added to Drops")
                #expect(try await browser.gallery(drops.id).items?.map(\.item.id) == [second[0].id])

                try await browser.drag(from: tile, to: target)
                try await browser.waitUntil("the question again") { try await Self.dialogOpen(browser) }
                try await browser.waitFor("#neardup-add").click()
                try await browser.waitForToast({ $0 == "Added to Drops" }, "Added to Drops")
                #expect(try await browser.gallery(drops.id).items?.map(\.item.id) == [second[0].id, first[0].id])
            }
        }
    }
}
