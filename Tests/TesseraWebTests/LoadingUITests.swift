import Foundation
import TesseraWebDriver
import Testing

/// What the page downloads, and when: everything under one version, and the gallery screens' modules only
/// once a gallery screen opens.
@Suite("What the web app loads, in a browser", .chromedriver, .serialized)
struct LoadingUITests {
    static let galleryModules = [
        "galleries.js", "gallery.js", "changes.js", "drops.js", "tiles.js", "tilemenu.js", "touchreorder.js",
    ]

    @Test func theGalleryScreensModulesLoadOnlyWhenOneOpens() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                try await browser.execute("performance.setResourceTimingBufferSize(5000)")
                try await browser.waitForTiles(atLeast: 20)
                // The detail view is part of the search page, and so is the "Add to gallery" picker.
                try await browser.waitFor("#results .tile a").click()
                try await browser.waitFor("#detail-actions [data-action=add-to-gallery]").click()
                try await browser.waitUntil("the picker") {
                    try await browser.execute("return document.querySelector('dialog[open]') !== null").bool == true
                }
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the picker to close") {
                    try await browser.execute("return document.querySelector('dialog[open]') === null").bool == true
                }
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the detail view to close") { try await browser.isHidden("#detail") }

                let searchPage = try await browser.appFilesLoaded()
                let main = try #require(searchPage.first { $0.hasSuffix("/main.js") })
                let version = main.dropLast("main.js".count)
                #expect(version.count == "/app/0123456789abcdef/".count, "\(main)")
                #expect(searchPage.allSatisfy { $0.hasPrefix(version) }, "\(searchPage)")
                #expect(searchPage.contains("\(version)detail/detail.js"))
                #expect(searchPage.contains("\(version)search/picker.js"))
                #expect(searchPage.allSatisfy { !$0.contains("/galleries/") }, "\(searchPage)")

                try await browser.waitFor("#nav-galleries").click()
                try await browser.waitUntil("the galleries list") {
                    try await browser.text(of: "#galleries-status").hasPrefix("No galleries yet")
                }
                let galleriesPage = try await browser.appFilesLoaded()
                for module in Self.galleryModules {
                    #expect(galleriesPage.contains("\(version)galleries/\(module)"), "\(module)")
                }

                // Loaded late, the screens work as ever: make a gallery, open it.
                try await browser.waitFor("#new-gallery-name").sendKeys("Late" + Key.enter)
                try await browser.waitFor("#gallery-cards .card .card-cover").click()
                try await browser.waitUntil("the gallery's page") {
                    try await browser.text(of: "#gallery-name") == "Late"
                }
                // Back to the results, and forward to the gallery: no module is asked for twice.
                try await browser.back()
                try await browser.back()
                try await browser.waitForTiles(atLeast: 20)
                try await browser.forward()
                try await browser.forward()
                try await browser.waitUntil("the gallery's page again") {
                    try await browser.text(of: "#gallery-name") == "Late"
                }
                // (The icon is asked for twice, as the shell's image and as the tab's icon.)
                let modules = try await browser.appFilesLoaded().filter { $0.hasSuffix(".js") }
                #expect(Set(modules).count == modules.count, "each module asked for once: \(modules)")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }
}

extension Browser {
    /// The paths under `/app/` the page has asked for so far, in order (Resource Timing).
    func appFilesLoaded() async throws -> [String] {
        try await execute(
            """
            return performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)
              .filter((path) => path.startsWith('/app/'))
            """, as: [String].self)
    }
}
