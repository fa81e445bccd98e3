import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// Where the keyboard is, the scope picker's commit, and the start page, at a phone's size and a laptop's.
@Suite("Focus, scope and the start page in a browser", .chromedriver, .serialized)
struct FocusAndStartUITests {
    /// The focused element's ring, from computed styles: whether it is drawn and whether a box that clips what
    /// its children paint (a tile's `content-visibility`) would cut it off.
    private func focusRing(_ browser: Browser) async throws -> FocusRing {
        try await browser.execute(
            """
            const el = document.activeElement;
            const s = getComputedStyle(el);
            const width = parseFloat(s.outlineWidth) || 0, offset = parseFloat(s.outlineOffset) || 0;
            const r = el.getBoundingClientRect(), out = offset + width;
            let clipped = false;
            for (let node = el.parentElement; node; node = node.parentElement) {
              const n = getComputedStyle(node);
              if (n.contentVisibility === 'visible' && !/paint|strict|content/.test(n.contain)) continue;
              const b = node.getBoundingClientRect();
              if (r.left - out < b.left - 0.5 || r.top - out < b.top - 0.5 ||
                  r.right + out > b.right + 0.5 || r.bottom + out > b.bottom + 0.5) clipped = true;
            }
            return { focusVisible: el.matches(':focus-visible'), style: s.outlineStyle, width, clipped };
            """, as: FocusRing.self)
    }

    @Test func resultAndGalleryTilesShowTheirFocusRing() async throws {
        try await WebApp.run { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await browser.open(app, "/search?q=fox&scope=flickr")
                    try await browser.waitForTiles(atLeast: 6)
                    try await browser.execute("document.querySelector('#results .tile a').focus()")
                    try await browser.pressKeys(Key.right)
                    let result = try await focusRing(browser)
                    #expect(result.focusVisible && result.style != "none" && result.width >= 2, "\(result)")
                    #expect(!result.clipped, "the ring lies inside the tile: \(result)")

                    let gallery = try await browser.createGallery("Focus \(size.width)")
                    try await browser.addImage(app.standInImage("a"), to: gallery.id)
                    try await browser.open(app, "/galleries/\(gallery.id)")
                    try await browser.waitForGalleryTiles(1)
                    try await browser.execute("document.querySelector('#gallery-grid .tile a').focus()")
                    try await browser.pressKeys(Key.tab)
                    let menu = try await focusRing(browser)
                    #expect(try await browser.activeElement()?.attribute("class") == "tile-menu")
                    #expect(menu.focusVisible && menu.style != "none" && menu.width >= 2, "\(menu)")
                    #expect(!menu.clipped, "the menu button's ring lies inside the tile: \(menu)")
                    // Moved by script after the keyboard, the focus still shows (Chromium's :focus-visible rule).
                    try await browser.execute("document.querySelector('#gallery-grid .tile a').focus()")
                    let link = try await focusRing(browser)
                    #expect(link.focusVisible && !link.clipped && link.width >= 2, "\(link)")
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    @Test func arrowKeysOnTheScopePickerWaitForEnter() async throws {
        try await WebApp.run { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await browser.open(app, "/search?q=fox&scope=all")
                    try await browser.waitForTiles(atLeast: 6, loaded: false)
                    let searches = app.standIns.list.map(\.state.requestCount).reduce(0, +)
                    try await browser.execute("document.querySelector('#scope').focus()")
                    try await browser.pressKeys(Key.down + Key.down)
                    let chosen = try await browser.execute("return document.querySelector('#scope').value").string
                    #expect(chosen != nil && chosen != "all", "the arrows moved the choice")
                    try await Task.sleep(for: .milliseconds(700))
                    #expect(try await browser.currentURL == app.url("/search?q=fox&scope=all"), "no search yet")
                    #expect(app.standIns.list.map(\.state.requestCount).reduce(0, +) == searches, "nothing asked")

                    try await browser.pressKeys(Key.enter)
                    try await browser.waitUntil("the search in the chosen scope") {
                        try await browser.currentURL == app.url("/search?q=fox&scope=\(chosen ?? "")")
                    }
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    @Test func theStartPageTeachesAndNamesNoSetting() async throws {
        try await WebApp.run(without: ["PIXABAY_API_KEY", "FLICKR_API_KEY"]) { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await browser.open(app, "/")
                    let examples = try await browser.findAll("#home .examples a")
                    #expect(examples.count >= 3, "a few example searches")
                    try await browser.waitUntil("the services") { try await !browser.isHidden("#services") }
                    let on = try await browser.text(of: "#services-on")
                    #expect(on.contains("Openverse") && on.contains("iTunes"), "\(on)")
                    let off = try await browser.text(of: "#services-off-text")
                    #expect(off == "Your library, Pixabay and Flickr are off.")
                    let hint = try await browser.execute(
                        "return getComputedStyle(document.querySelector('#home .keys-only')).display")
                    #expect((hint.string == "none") == size.mobile, "“Press /” only where there is a keyboard")
                    let page = try await browser.text(of: "body")
                    #expect(!page.contains("_KEY") && !page.contains("TESSERA_"), "no setting's name in the page")

                    // The setup link leads to a page that says how to turn them on.
                    try await browser.waitFor("#services-off a").click()
                    try await browser.waitUntil("the setup page") {
                        try await browser.text(of: "h1") == "Turning services on"
                    }
                    #expect(try await browser.text(of: "body").contains("PIXABAY_API_KEY"))

                    // An example runs its search.
                    try await browser.open(app, "/")
                    try await browser.waitFor("#home .examples a").click()
                    try await browser.waitUntil("the example's results") {
                        try await browser.currentURL.hasPrefix(app.url("/search?q=lighthouse"))
                    }
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    @Test func theToolbarLeavesRoomForResults() async throws {
        try await WebApp.run { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await browser.open(app, "/search?q=fox&scope=flickr")
                    try await browser.waitForTiles(atLeast: 18, loaded: false)
                    let geometry = try await browser.execute(
                        """
                        const tops = [...document.querySelectorAll('#results .tile')]
                          .map(t => t.getBoundingClientRect()).filter(r => r.bottom <= innerHeight + 0.5)
                          .map(r => Math.round(r.top));
                        const bar = document.querySelector('.toolbar').getBoundingClientRect().height;
                        const buttons = [...document.querySelectorAll('.toolbar button')].map(b => b.getBoundingClientRect());
                        return { rows: new Set(tops).size, toolbar: bar,
                                 buttonRows: new Set(buttons.map(r => Math.round(r.top))).size };
                        """)
                    if size.mobile {
                        // Filter on one row; count, layout and galleries on the next; five rows of results below.
                        #expect((geometry["rows"]?.int ?? 0) >= 5, "five whole rows on the first screen: \(geometry)")
                        #expect(geometry["buttonRows"]?.int == 2, "\(geometry)")
                    } else {
                        #expect(geometry["buttonRows"]?.int == 1, "one toolbar row on a laptop: \(geometry)")
                    }
                    let name = try await browser.execute("return document.querySelector('#panel-toggle').textContent")
                    #expect(name.string == "Galleries panel", "the button's name is whole on a phone too")
                    try await browser.saveScreenshot(named: "results-toolbar-\(size.width)x\(size.height)")
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    @Test func aTooLongQueryKeepsWhatWasTyped() async throws {
        try await WebApp.run { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    let long = String(repeating: "b", count: 101)
                    try await browser.open(app, "/search?q=\(long)&scope=all")
                    try await browser.waitUntil("the length message") { try await !browser.isHidden("#query-message") }
                    #expect(try await browser.text(of: "#query-message").contains("at most 100"))
                    #expect(try await browser.execute("return document.querySelector('#q').value").string == long)
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }
}

struct FocusRing: Decodable, Sendable, CustomStringConvertible {
    let focusVisible: Bool
    let style: String
    let width: Double
    let clipped: Bool

    var description: String { "focus-visible \(focusVisible), outline \(style) \(width) px, clipped \(clipped)" }
}
