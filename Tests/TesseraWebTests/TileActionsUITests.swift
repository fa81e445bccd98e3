import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// What a finger can do without dragging: add a result to a gallery from its tile; and toasts that leave
/// the detail view's controls uncovered.
@Suite("Tile actions in a browser", .chromedriver, .serialized)
struct TileActionsUITests {
    @Test func aFingerAddsAResultToAGalleryFromItsTile() async throws {
        try await WebApp.run { app in
            try await withBrowser(width: 390, height: 844, mobile: true) { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                let picks = try await browser.createGallery("Phone picks")
                try await browser.waitForTiles(atLeast: 3)
                let second = try #require(
                    try await browser.find("#results .tile:nth-child(2) a")?.attribute("data-item"))
                let add = try await browser.waitFor("#results .tile:nth-child(2) .tile-add")
                #expect(try await add.cssValue("opacity") == "1", "shown without hovering on a touch screen")
                #expect(try await add.attribute("aria-label")?.hasSuffix("to a gallery") == true)

                try await browser.tap(on: add)
                try await browser.waitFor("#picker-list [data-gallery='\(picks.id)']").click()
                try await browser.waitForToast({ $0 == "Added to Phone picks" }, "Added to Phone picks")
                #expect(try await browser.gallery(picks.id).items?.map(\.item.id) == [second])
                #expect(try await browser.isHidden("#detail"), "the tile's button added; it did not open the item")
                try await browser.expectNoConsoleErrors()
            }
        }
    }

    @Test(arguments: phoneAndDesktop.map { [$0.width, $0.height, $0.mobile ? 1 : 0] })
    func aToastInTheDetailViewCoversNoControl(size: [Int]) async throws {
        try await WebApp.run { app in
            try await withBrowser(width: size[0], height: size[1], mobile: size[2] == 1) { browser in
                try await browser.cdp(
                    "Browser.grantPermissions",
                    ["permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"], "origin": .string(app.base)])
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                try await browser.waitForTiles(atLeast: 3)
                try await browser.waitFor("#results .tile:nth-child(2) a").click()
                let copy = try await browser.waitFor("#detail-actions [data-action=copy-text]")
                // On a phone the actions are below the image: bring them to the bottom of the screen, where a
                // toast used to sit on them.
                _ = try await browser.execute(
                    "document.querySelector('#detail-actions').scrollIntoView({ block: 'end' })")
                try await copy.click()
                try await browser.waitForToast({ $0 == "Attribution copied" }, "Attribution copied")
                let covered = try await browser.execute(
                    """
                    const toast = document.querySelector('#toast').getBoundingClientRect();
                    const overlaps = (r) => r.width > 0 && r.height > 0 && r.left < toast.right &&
                      toast.left < r.right && r.top < toast.bottom && toast.top < r.bottom;
                    return [...document.querySelectorAll('#detail button, #detail a')]
                      .filter(e => overlaps(e.getBoundingClientRect()))
                      .map(e => e.textContent || e.getAttribute('aria-label'))
                    """, as: [String].self)
                #expect(covered == [], "the toast covers \(covered)")
                try await browser.expectNoConsoleErrors()
            }
        }
    }

    @Test func aResultAlreadyInAGalleryIsMarkedAndNotAddedTwice() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                let picks = try await browser.createGallery("Picks")
                try await browser.waitForTiles(atLeast: 3)
                let first = try #require(
                    try await browser.find("#results .tile:nth-child(1) a")?.attribute("data-item"))
                #expect(try await browser.find("#results .tile-held") == nil, "nothing is in a gallery yet")

                try await browser.waitFor("#results .tile:nth-child(1) .tile-add").click()
                try await browser.waitFor("#picker-list [data-gallery='\(picks.id)']").click()
                try await browser.waitForToast({ $0 == "Added to Picks" }, "Added to Picks")
                let mark = try await browser.waitFor("#results .tile:nth-child(1) .tile-held")
                #expect(try await mark.attribute("aria-label") == "In Picks")

                // Again: the picker says it is there, and choosing it adds nothing.
                try await browser.waitFor("#results .tile:nth-child(1) .tile-add").click()
                let entry = try await browser.waitFor("#picker-list [data-gallery='\(picks.id)']")
                #expect(try await entry.attribute("data-holds") == "")
                #expect(try await entry.text.contains("Already here"))
                try await entry.click()
                try await browser.waitForToast({ $0 == "Already in Picks" }, "Already in Picks")
                #expect(try await browser.gallery(picks.id).items?.map(\.item.id) == [first], "not added twice")

                // The mark comes from the server: it is there after a reload, on that result only.
                try await browser.refresh()
                try await browser.waitForTiles(atLeast: 3)
                try await browser.waitUntil("the mark after a reload") {
                    try await browser.findAll("#results .tile-held").count == 1
                }
                #expect(try await browser.find("#results .tile:nth-child(1) .tile-held") != nil)
                try await browser.expectNoConsoleErrors()
            }
        }
    }
}
