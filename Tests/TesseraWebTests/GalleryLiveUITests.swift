import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// Galleries on a phone and across windows: reordering with a finger, changes in one window appearing in
/// another, and screenshots of the gallery screens.
@Suite("Galleries on a phone and between windows", .chromedriver, .serialized)
struct GalleryLiveUITests {
    @Test func reorderByTouchOnAPhone() async throws {
        try await WebApp.run { app in
            try await withBrowser(width: 390, height: 844, mobile: true) { browser in
                try await browser.open(app, "/galleries")
                let gallery = try await browser.createGallery("Thumbs")
                var ids: [String] = []
                for name in ["t1", "t2", "t3"] {
                    ids.append(try await browser.addImage(app.standInImage(name), to: gallery.id).id)
                }
                try await browser.open(app, "/galleries/\(gallery.id)")
                try await browser.waitForGalleryTiles(3)

                // Hold the first tile until it lifts, move it past the third, let go.
                let first = try await browser.waitFor("#gallery-grid .tile:nth-child(1) img")
                let third = try await browser.waitFor("#gallery-grid .tile:nth-child(3) img")
                try await browser.touchDrag(from: first, to: third, offsetX: 30)
                let moved = [ids[1], ids[2], ids[0]]
                #expect(try await browser.galleryTileIDs() == moved)
                try await browser.waitUntil("the server's order") {
                    try await browser.gallery(gallery.id).items?.map(\.id) == moved
                }
                #expect(try await browser.currentURL == app.url("/galleries/\(gallery.id)"), "the drop opened nothing")
                #expect(try await browser.find(".drag-ghost") == nil)
                #expect(try await browser.isHidden("#trash-target"))

                // A quick tap still opens the item.
                try await browser.waitFor("#gallery-grid .tile:nth-child(1) a").click()
                try await browser.waitUntil("the detail") { try await !browser.isHidden("#detail") }
                try await browser.expectNoConsoleErrors()
            }
        }
    }

    @Test func anotherWindowSeesChangesWithinASecond() async throws {
        try await WebApp.run { app in
            try await withBrowser { first in
                try await first.open(app, "/galleries")
                let gallery = try await first.createGallery("Shared")
                try await first.open(app, "/galleries/\(gallery.id)")
                try await withBrowser(width: 390, height: 844, mobile: true) { second in
                    try await second.open(app, "/galleries/\(gallery.id)")
                    try await second.waitUntil("the second window's empty gallery") {
                        try await !second.isHidden("#gallery-empty")
                    }

                    // Added in the first window: there in the second within a second or two, once in each.
                    try await first.drag(to: "#gallery-empty", data: ["text/uri-list": app.standInImage("live-1")])
                    try await first.waitForGalleryTiles(1)
                    try await second.waitForGalleryTiles(1, timeout: .seconds(2))
                    try await first.drag(
                        to: "#gallery-grid .tile:nth-child(1)", at: (0.9, 0.5),
                        data: ["text/uri-list": app.standInImage("live-2")])
                    try await first.waitForGalleryTiles(2)
                    try await second.waitForGalleryTiles(2, timeout: .seconds(2))
                    let stored = try await first.gallery(gallery.id)
                    let order = try #require(stored.items?.map(\.id))
                    #expect(try await second.galleryTileIDs() == order)
                    try await Task.sleep(for: .milliseconds(500))
                    #expect(try await first.galleryTileIDs() == order, "its own changes are not applied twice")

                    // Moved and renamed in the second window: seen in the first.
                    try await second.drag(
                        from: "#gallery-grid .tile:nth-child(2) a", to: "#gallery-grid .tile:nth-child(1)",
                        at: (0.1, 0.5))
                    try await first.waitUntil("the move in the first window", timeout: .seconds(2)) {
                        try await first.galleryTileIDs() == order.reversed()
                    }
                    try await second.waitFor("#gallery-name").click()
                    _ = try await second.waitFor("#gallery-heading .rename-field")
                    try await second.pressKeys("Shared live" + Key.enter)
                    try await first.waitUntil("the new name in the first window", timeout: .seconds(2)) {
                        try await first.text(of: "#gallery-name") == "Shared live"
                    }

                    // Removed in the first: gone from the second.
                    try await first.execute("document.querySelector('#gallery-grid .tile:nth-child(1) a').focus()")
                    try await first.pressKeys(Key.delete)
                    try await second.waitUntil("the removal in the second window", timeout: .seconds(2)) {
                        try await second.galleryTileIDs() == [order[0]]
                    }

                    // Deleted from the list in the second: the first says so and offers Restore.
                    try await second.api("DELETE", "/api/galleries/\(gallery.id)")
                    try await first.waitUntil("the deleted banner", timeout: .seconds(2)) {
                        try await !first.isHidden("#gallery-banner")
                    }
                    try await first.waitFor("#gallery-restore").click()
                    try await second.waitUntil("the restore seen in the second window", timeout: .seconds(2)) {
                        try await second.isHidden("#gallery-banner")
                    }
                    #expect(try await second.gallery(gallery.id).deletedAt == nil)
                    try await second.expectNoConsoleErrors()
                }
                try await first.expectNoConsoleErrors()
            }
        }
    }

    /// The gallery screens at a phone's and a desktop's size, saved for people to look at (not committed).
    @Test(arguments: [(390, 844, true), (1280, 800, false)])
    func screenshots(width: Int, height: Int, mobile: Bool) async throws {
        try await WebApp.run { app in
            try await withBrowser(width: width, height: height, mobile: mobile) { browser in
                try await browser.open(app, "/galleries")
                let gallery = try await browser.createGallery("Autumn walks")
                for name in ["s1", "s2", "s3", "s4", "s5", "s6", "s7"] {
                    try await browser.addImage(app.standInImage(name), to: gallery.id)
                }
                _ = try await browser.createGallery("Empty for now")
                let old = try await browser.createGallery("Old ideas")
                try await browser.api("DELETE", "/api/galleries/\(old.id)")
                try await browser.open(app, "/galleries")
                try await browser.waitUntil("the cards") {
                    try await browser.execute(
                        "return [...document.querySelectorAll('#gallery-cards img')].every(i => i.complete && i.naturalWidth > 0) && document.querySelectorAll('#gallery-cards .card').length === 2"
                    ).bool == true
                }
                #expect(
                    try await browser.execute("return document.documentElement.scrollWidth").int == width,
                    "no sideways scrolling")
                try await browser.saveScreenshot(named: "galleries-\(width)x\(height)")

                try await browser.open(app, "/galleries/\(gallery.id)")
                try await browser.waitForGalleryTiles(7)
                #expect(try await browser.execute("return document.documentElement.scrollWidth").int == width)
                try await browser.saveScreenshot(named: "gallery-\(width)x\(height)")
                try await browser.waitFor("#gallery-grid .tile:nth-child(2) .tile-menu").click()
                _ = try await browser.waitFor("#item-menu:not([hidden])")
                try await browser.saveScreenshot(named: "gallery-menu-\(width)x\(height)")
                try await browser.pressKeys(Key.escape)

                try await browser.open(app, "/search?q=fox&scope=pixabay")
                try await browser.waitForTiles(atLeast: 6)
                try await browser.waitFor("#results .tile a").click()
                try await browser.waitFor("#detail-actions [data-action=add-to-gallery]").click()
                _ = try await browser.waitFor("#picker-list [data-gallery]")
                try await browser.saveScreenshot(named: "picker-\(width)x\(height)")
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the picker to close") {
                    try await browser.find("#gallery-picker[open]") == nil
                }
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the results") { try await browser.isHidden("#detail") }
                try await browser.waitFor("#panel-toggle").click()
                _ = try await browser.waitFor("#gallery-panel-list [data-gallery]")
                try await browser.saveScreenshot(named: "results-panel-\(width)x\(height)")
                try await browser.waitFor("#panel-close").click()

                try await browser.cdp(
                    "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
                try await browser.open(app, "/galleries/\(gallery.id)")
                try await browser.waitForGalleryTiles(7)
                try await browser.saveScreenshot(named: "gallery-dark-\(width)x\(height)")
                try await browser.expectNoConsoleErrors()
            }
        }
    }
}
