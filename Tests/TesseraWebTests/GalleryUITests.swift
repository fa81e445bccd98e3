import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// Galleries in headless Chromium against the real server: the list (create, rename, delete, Recently
/// deleted), adding from search, drops of links, images and files, reordering and the trash. (Touch, live
/// updates between windows and screenshots: `GalleryLiveUITests`.) Every outcome is checked in the page and
/// through the API.
@Suite("Galleries in a browser", .chromedriver, .serialized)
struct GalleryUITests {
    @Test func createRenameDeleteWithUndoRestoreAndDeleteForever() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.open(app, "/")
                try await browser.waitFor("#nav-galleries").click()
                try await browser.waitUntil("the galleries page") {
                    try await browser.currentURL == app.url("/galleries")
                }
                try await browser.waitUntil("the empty state") {
                    try await browser.text(of: "#galleries-status").hasPrefix("No galleries yet")
                }

                // Names are 1–100 characters after trimming; anything else is said next to the field.
                let field = try await browser.waitFor("#new-gallery-name")
                try await field.sendKeys("   " + Key.enter)
                try await browser.waitUntil("the empty-name message") {
                    try await !browser.isHidden("#new-gallery-message")
                }
                #expect(try await browser.text(of: "#new-gallery-message") == "Give the gallery a name.")
                try await field.clear()
                try await field.sendKeys(String(repeating: "x", count: 101) + Key.enter)
                #expect(try await browser.text(of: "#new-gallery-message").contains("at most 100 characters"))
                #expect(try await browser.galleries().isEmpty, "nothing was created")

                try await field.clear()
                try await field.sendKeys("Moodboard" + Key.enter)
                try await browser.waitUntil("the first card") {
                    try await browser.findAll("#gallery-cards .card").count == 1
                }
                #expect(try await browser.isHidden("#new-gallery-message"))
                try await field.sendKeys("  Trips  " + Key.enter)
                try await browser.waitUntil("the second card") {
                    try await browser.findAll("#gallery-cards .card").count == 2
                }
                let stored = try await browser.galleries()
                #expect(Set(stored.map(\.name)) == ["Moodboard", "Trips"], "names are stored trimmed")
                let moodboard = try #require(stored.first { $0.name == "Moodboard" })
                let trips = try #require(stored.first { $0.name == "Trips" })
                let moodCard = "#gallery-cards .card[data-id='\(moodboard.id)']"
                let tripsCard = "#gallery-cards .card[data-id='\(trips.id)']"

                // Rename in place: Enter saves…
                try await browser.waitFor("\(moodCard) .name-button").click()
                _ = try await browser.waitFor("\(moodCard) .rename-field")
                try await browser.pressKeys("Mood board" + Key.enter)
                try await browser.waitUntil("the new name on the card") {
                    try await browser.text(of: "\(moodCard) .name-button") == "Mood board"
                }
                #expect(try await browser.gallery(moodboard.id).name == "Mood board")
                #expect(
                    try await browser.activeElement()?.attribute("class") == "name-button", "focus is back on the name")
                // …Escape cancels.
                try await browser.pressKeys(Key.enter)
                _ = try await browser.waitFor("\(moodCard) .rename-field")
                try await browser.pressKeys("Never mind" + Key.escape)
                try await browser.waitUntil("the name back") { try await browser.find(".rename-field") == nil }
                #expect(try await browser.text(of: "\(moodCard) .name-button") == "Mood board")
                #expect(try await browser.gallery(moodboard.id).name == "Mood board", "nothing was saved")

                // Delete moves to Recently deleted; the toast's Undo restores.
                try await browser.waitFor("\(tripsCard) .card-delete").click()
                try await browser.waitForToast({ $0 == "Moved Trips to Recently deleted" }, "moved")
                try await browser.holdToast()
                #expect(try await browser.find(tripsCard) == nil)
                #expect(try await browser.galleries(deleted: true).map(\.id) == [trips.id])
                try await browser.waitFor("#toast .toast-action").click()
                try await browser.waitUntil("Trips back in the list") { try await browser.find(tripsCard) != nil }
                #expect(try await browser.gallery(trips.id).deletedAt == nil)
                #expect(try await browser.isHidden("#deleted-galleries"))

                // From Recently deleted: Restore…
                try await browser.waitFor("\(tripsCard) .card-delete").click()
                let row = "#deleted-list [data-id='\(trips.id)']"
                try await browser.waitFor("\(row) [data-action=restore]").click()
                try await browser.waitUntil("Trips restored") { try await browser.find(tripsCard) != nil }
                #expect(try await browser.galleries().count == 2)

                // …and Delete forever, after a question (Cancel keeps it).
                try await browser.waitFor("\(tripsCard) .card-delete").click()
                try await browser.waitFor("\(row) [data-action=purge]").click()
                try await browser.waitUntil("the question") {
                    try await browser.execute("return document.querySelector('#confirm-dialog').open").bool == true
                }
                #expect(try await browser.activeElement()?.attribute("id") == "confirm-no", "Cancel has the focus")
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the question to close") {
                    try await browser.execute("return document.querySelector('#confirm-dialog').open").bool == false
                }
                #expect(try await browser.find(row) != nil, "cancelled: still in Recently deleted")
                try await browser.waitFor("\(row) [data-action=purge]").click()
                try await browser.waitFor("#confirm-yes").click()
                try await browser.waitUntil("Trips gone") { try await browser.find(row) == nil }
                #expect(try await browser.galleries(deleted: true).isEmpty)
                #expect(try await browser.galleries().map(\.id) == [moodboard.id])

                // The list is an address of its own.
                try await browser.refresh()
                try await browser.waitUntil("the list after a reload") {
                    try await browser.text(of: "#gallery-cards .name-button") == "Mood board"
                }
                try await browser.expectNoConsoleErrors()
            }
        }
    }

    @Test func addFromTheDetailPickerAndByDraggingAResultOntoTheSidePanel() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                let picks = try await browser.createGallery("Picks")
                try await browser.waitForTiles(atLeast: 3)
                let first = try #require(
                    try await browser.find("#results .tile:nth-child(1) a")?.attribute("data-item"))
                let second = try #require(
                    try await browser.find("#results .tile:nth-child(2) a")?.attribute("data-item"))

                try await browser.waitFor("#results .tile:nth-child(1) a").click()
                try await browser.waitFor("#detail-actions [data-action=add-to-gallery]").click()
                try await browser.waitFor("#picker-list [data-gallery='\(picks.id)']").click()
                try await browser.waitForToast({ $0 == "Added to Picks" }, "Added to Picks")
                #expect(try await browser.gallery(picks.id).items?.map(\.item.id) == [first])

                // "New gallery…" makes one and adds to it in one go.
                try await browser.waitFor("#detail-actions [data-action=add-to-gallery]").click()
                try await browser.waitFor("#picker-new-toggle").click()
                try await browser.waitFor("#picker-name").sendKeys("Fresh" + Key.enter)
                try await browser.waitForToast({ $0 == "Added to Fresh" }, "Added to Fresh")
                let fresh = try #require(try await browser.galleries().first { $0.name == "Fresh" })
                #expect(try await browser.gallery(fresh.id).items?.map(\.item.id) == [first])

                // The same from the image's right-click menu; Escape closes the picker, then the detail.
                try await browser.contextClick(on: try await browser.waitFor("#stage"))
                try await browser.waitFor("#action-menu [data-action=add-to-gallery]").click()
                _ = try await browser.waitFor("#gallery-picker[open]")
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the picker to close") {
                    try await browser.find("#gallery-picker[open]") == nil
                }
                #expect(try await !browser.isHidden("#detail"), "Escape closed the picker only")
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the results") { try await browser.isHidden("#detail") }

                // Dragging a result shows the galleries panel; dropping it on a gallery adds it there.
                #expect(try await browser.isHidden("#gallery-panel"))
                try await browser.drag(
                    from: "#results .tile:nth-child(2) a", to: "#gallery-panel-list [data-gallery='\(picks.id)']")
                try await browser.waitForToast({ $0 == "Added to Picks" }, "Added to Picks after the drop")
                #expect(try await browser.gallery(picks.id).items?.map(\.item.id) == [first, second])
                try await browser.waitUntil("the panel to close again") { try await browser.isHidden("#gallery-panel") }

                // Kept open with its button, it lists the galleries with their counts.
                try await browser.waitFor("#panel-toggle").click()
                try await browser.waitUntil("the panel's counts") {
                    try await browser.text(of: "#gallery-panel-list [data-gallery='\(picks.id)'] .count") == "2 items"
                }

                // In the gallery, a result shows from the gallery's own copy, not from the source.
                try await browser.waitFor("#gallery-panel-list [data-gallery='\(picks.id)']").click()
                try await browser.waitForGalleryTiles(2)
                let kept = try #require(try await browser.gallery(picks.id).items?.first)
                #expect(
                    try await browser.execute(
                        "return document.querySelector('#gallery-grid .tile img').getAttribute('src')"
                    )
                    .string == kept.image.thumbnail.url)
                try await browser.waitFor("#gallery-grid .tile a").click()
                try await browser.waitUntil("the stored preview in the detail view") {
                    try await browser.execute("return document.querySelector('#stage-image').getAttribute('src')")
                        .string
                        == kept.image.preview.url
                }
                #expect(try await browser.text(of: "#detail-title") == kept.item.title)
                try await browser.expectNoConsoleErrors()
            }
        }
    }

    @Test func droppedLinksImagesAndFilesAreAddedWhereTheyLandAndAFailureSaysWhy() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.open(app, "/galleries")
                let gallery = try await browser.createGallery("Drops")
                try await browser.open(app, "/galleries/\(gallery.id)")
                try await browser.waitUntil("the empty drop zone") { try await !browser.isHidden("#gallery-empty") }

                // A link to an image: a placeholder while the server fetches it, then the image.
                app.standInServer.imageDelay = .milliseconds(700)
                let linked = app.standInImage("dropped-link")
                let state = try await browser.drag(to: "#gallery-empty", data: ["text/uri-list": linked])
                #expect(state.pendingAfterDrop == 1, "a placeholder at once")
                try await browser.waitForGalleryTiles(1)
                app.standInServer.imageDelay = .zero
                var stored = try await browser.gallery(gallery.id)
                #expect(stored.items?.map(\.sourceURL) == [linked])
                #expect(stored.items?.first?.item.source == "web")

                // An image dragged from another page: the src in its HTML, not the link around it. Dropped on
                // the left half of the first tile, it goes first.
                let pictured = app.standInImage("dragged-image")
                try await browser.drag(
                    to: "#gallery-grid .tile:nth-child(1)", at: (0.2, 0.5),
                    data: [
                        "text/uri-list": "https://example.com/a-page-about-it",
                        "text/html":
                            "<a href=\"https://example.com/a-page-about-it\"><img src=\"\(pictured)\" alt=\"\"></a>",
                    ])
                try await browser.waitForGalleryTiles(2)
                stored = try await browser.gallery(gallery.id)
                #expect(stored.items?.map(\.sourceURL) == [pictured, linked])
                #expect(
                    try await browser.galleryTileIDs() == stored.items?.map(\.id), "the page shows the server's order")

                // A link that is not an image: the placeholder goes and the server's reason is shown.
                let before = stored.revision
                let failed = try await browser.drag(
                    to: "#gallery-grid .tile:nth-child(2)", data: ["text/plain": "\(app.standInServer.origin)/health"])
                #expect(failed.pendingAfterDrop == 1)
                try await browser.waitForToast({ $0.contains("was not added: ") }, "not added")
                let message = try await browser.toastText()
                #expect(message.count > "“health” was not added: ".count + 5, "the server's reason: \(message)")
                try await browser.waitUntil("the placeholder to go") { try await browser.pendingTileCount() == 0 }
                stored = try await browser.gallery(gallery.id)
                #expect(stored.items?.count == 2)
                #expect(stored.revision == before, "nothing changed")

                // An image file from the desktop: uploaded as multipart, at the end. It is a copy of the first
                // item's picture, so the page asks first (docs/galleries.md, "Near duplicates").
                let thumbnail = try #require(stored.items?.first?.image.thumbnail.url)
                try await browser.drag(to: "#gallery-drop", at: (0.5, 0.95), fileFrom: thumbnail, fileName: "desk.jpg")
                try await browser.waitUntil("the question") { try await NearDuplicateUITests.dialogOpen(browser) }
                try await browser.waitFor("#neardup-add").click()
                try await browser.waitForGalleryTiles(3)
                stored = try await browser.gallery(gallery.id)
                #expect(stored.items?.last?.item.source == "upload")
                #expect(stored.items?.last?.sourceURL == nil)
                #expect(try await browser.galleryTileIDs() == stored.items?.map(\.id))

                // An item opens in the detail view from the gallery's own copy of its image.
                let upload = try #require(stored.items?.last)
                try await browser.waitFor("#gallery-grid .tile:nth-child(3) a").click()
                try await browser.waitUntil("the stored preview") {
                    try await browser.execute(
                        "const img = document.querySelector('#stage-image'); return img.complete && img.naturalWidth > 0 ? img.getAttribute('src') : null"
                    ).string == upload.image.preview.url
                }
                #expect(try await browser.currentURL == app.url("/galleries/\(gallery.id)?item=\(upload.id)"))
                try await browser.refresh()
                try await browser.waitUntil("the same item after a reload") {
                    try await browser.text(of: "#detail-title") == upload.item.title
                }
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("back on the gallery") {
                    try await browser.currentURL == app.url("/galleries/\(gallery.id)")
                }
                #expect(try await browser.isHidden("#detail"))

                // Removed with its menu (no other item uses its bytes, but the copy stays until a restart);
                // Undo brings the same image back, at the same place, without asking about the first item (the
                // same picture).
                try await browser.waitFor("#gallery-grid .tile:nth-child(3) .tile-menu").click()
                try await browser.waitFor("#item-menu [data-action=remove]").click()
                try await browser.waitForToast({ $0.hasPrefix("Removed “") }, "Removed")
                try await browser.holdToast()
                try await browser.waitUntil("the removal stored") {
                    try await browser.gallery(gallery.id).items?.count == 2
                }
                try await browser.waitFor("#toast .toast-action").click()
                try await browser.waitForGalleryTiles(3)
                stored = try await browser.gallery(gallery.id)
                #expect(stored.items?.last?.item.title == upload.item.title)
                #expect(stored.items?.last?.item.id == upload.item.id, "the same image (ids come from the bytes)")
                // 415: the link that is not an image; 409: the desktop file's near duplicate, asked about.
                try await browser.expectNoConsoleErrors(exceptStatus: [409, 415])
            }
        }
    }

    @Test func reorderByDragAndByKeyboardAndRemoveOnTheTrashWithUndo() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.open(app, "/galleries")
                let gallery = try await browser.createGallery("Order")
                var added: [GalleryItemJSON] = []
                for name in ["a", "b", "c"] {
                    added.append(try await browser.addImage(app.standInImage(name), to: gallery.id))
                }
                let (a, b, c) = (added[0].id, added[1].id, added[2].id)
                try await browser.open(app, "/galleries/\(gallery.id)")
                try await browser.waitForGalleryTiles(3)
                #expect(try await browser.galleryTileIDs() == [a, b, c])

                // Drag the first tile onto the right half of the last: a marker shows where, then it moves there.
                let state = try await browser.drag(
                    from: "#gallery-grid .tile:nth-child(1) a", to: "#gallery-grid .tile:nth-child(3)", at: (0.8, 0.5))
                #expect(state.markerShown, "an insertion marker while dragging")
                #expect(state.trashShown, "the trash while dragging a tile")
                #expect(try await browser.galleryTileIDs() == [b, c, a])
                try await browser.waitUntil("the server's order") {
                    try await browser.gallery(gallery.id).items?.map(\.id) == [b, c, a]
                }
                #expect(try await browser.isHidden("#trash-target"), "the trash goes when the drag ends")

                // Keyboard: arrows move between tiles; the tile's menu moves it.
                try await browser.execute("document.querySelector('#gallery-grid .tile:nth-child(1) a').focus()")
                try await browser.pressKeys(Key.right)
                #expect(try await browser.activeElement()?.attribute("data-gallery-item") == c)
                try await browser.pressKeys(Key.left + Key.tab)
                #expect(try await browser.activeElement()?.attribute("aria-label")?.hasPrefix("Actions for ") == true)
                try await browser.pressKeys(Key.enter)
                _ = try await browser.waitFor("#item-menu:not([hidden])")
                #expect(
                    try await browser.activeElement()?.attribute("data-action") == "right",
                    "Move left is off for the first")
                try await browser.pressKeys(Key.enter)
                #expect(try await browser.galleryTileIDs() == [c, b, a])
                try await browser.waitUntil("the server's order after Move right") {
                    try await browser.gallery(gallery.id).items?.map(\.id) == [c, b, a]
                }
                #expect(
                    try await browser.activeElement()?.attribute("aria-expanded") == "false",
                    "focus stays on the moved tile's menu button")
                try await browser.pressKeys(Key.enter)
                _ = try await browser.waitFor("#item-menu:not([hidden])")
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the menu to close") { try await browser.isHidden("#item-menu") }

                // The trash: dropping a tile there removes it; Undo puts the same item back where it was.
                let trashed = try await browser.drag(from: "#gallery-grid .tile:nth-child(1) a", to: "#trash-target")
                #expect(trashed.trashShown)
                #expect(try await browser.galleryTileIDs() == [b, a])
                try await browser.waitForToast({ $0.hasPrefix("Removed “") }, "Removed")
                try await browser.holdToast()
                try await browser.waitUntil("the removal stored") {
                    try await browser.gallery(gallery.id).items?.count == 2
                }
                try await browser.waitFor("#toast .toast-action").click()
                try await browser.waitForGalleryTiles(3)
                let restored = try await browser.gallery(gallery.id)
                #expect(
                    restored.items?.map(\.item.id) == [added[2], added[1], added[0]].map(\.item.id), "c is back first")
                #expect(try await browser.galleryTileIDs() == restored.items?.map(\.id))
                try await browser.expectNoConsoleErrors()
            }
        }
    }
}
