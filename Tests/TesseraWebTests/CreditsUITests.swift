import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// A gallery's Credits sheet and the detail view's attribution formats in headless Chromium, at a phone's
/// and a desktop's size: every item's credit with its licence and flags, the warnings, the copy buttons
/// (read back from the clipboard), the server's `credit.text` on screen, and the web app's Markdown and XML
/// (read from the item's `credit`) checked against the server's for the same items (docs/licences.md,
/// "Credits").
@Suite("Credits in a browser", .chromedriver, .serialized)
struct CreditsUITests {
    /// Five search results added as the page would add them, with licences of every kind: as found
    /// (Pixabay), non-commercial with markup in its title, none at all, CC0, all rights reserved.
    static let fill = """
        const [gallery, done] = arguments;
        (async () => {
          const search = await (await fetch('/api/search?q=fox&scope=pixabay')).json();
          const items = search.sections[0].items.slice(0, 5);
          items[1].title = 'Fox & <b>hen</b>';
          items[1].license = { name: 'CC BY-NC 2.0', url: 'https://creativecommons.org/licenses/by-nc/2.0/' };
          delete items[2].license;
          items[3].license = { name: 'CC0 1.0', url: 'https://creativecommons.org/publicdomain/zero/1.0/' };
          items[3].creator = { name: 'Ann [the] *best*', url: 'https://example.org/ann_(home)' };
          items[4].license = { id: 'all-rights-reserved', name: '© 2020 Jane Doe', allowsCommercialUse: false,
            allowsModification: false, requiresCredit: true };
          for (const item of items) {
            const answer = await fetch(`/api/galleries/${gallery}/items`, { method: 'POST',
              headers: { 'content-type': 'application/json' }, body: JSON.stringify({ item }) });
            if (!answer.ok) throw new Error(await answer.text());
          }
          done('ok');
        })().catch((error) => done(String(error)));
        """

    /// The gallery's items' `credit` and the web app's forms of it (attribution.js) next to the server's
    /// credits for them.
    static let compare = """
        const [gallery, done] = arguments;
        (async () => {
          const js = await import('/app/shared/attribution.js');
          const items = (await (await fetch(`/api/galleries/${gallery}`)).json()).items;
          const credits = (await (await fetch(`/api/galleries/${gallery}/credits`)).json()).items;
          done(items.map((entry, index) => ({
            js: [entry.item.credit.text, js.creditMarkdown(entry.item.credit.html), js.creditXML(entry.item)],
            server: [credits[index].text, credits[index].markdown, credits[index].xml] })));
        })().catch((error) => done([{ js: [String(error)], server: [] }]));
        """

    static let clipboard = """
        const done = arguments[0];
        navigator.clipboard.read()
          .then(async (items) => done({ types: items[0].types, text: await navigator.clipboard.readText() }))
          .catch((error) => done({ types: [], text: 'failed: ' + error }));
        """

    struct Pair: Decodable {
        let js: [String]
        let server: [String]
    }

    struct Clipboard: Decodable {
        let types: [String]
        let text: String
    }

    @Test(arguments: [(390, 844, true), (1280, 800, false)])
    func theCreditsSheetListsWarnsAndCopies(width: Int, height: Int, mobile: Bool) async throws {
        try await WebApp.run { app in
            try await withBrowser(width: width, height: height, mobile: mobile) { browser in
                try await browser.cdp(
                    "Browser.grantPermissions",
                    ["permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"], "origin": .string(app.base)])
                try await browser.open(app, "/galleries")
                let gallery = try await browser.createGallery("Book <cover>")
                #expect(try await browser.executeAsync(Self.fill, [.string(gallery.id)]).string == "ok")

                // The item's credit is the credits' text, and the web app's Markdown and XML are the server's.
                let compared = try await browser.executeAsync(Self.compare, [.string(gallery.id)])
                let pairs = try JSONDecoder().decode([Pair].self, from: JSONEncoder().encode(compared))
                #expect(pairs.count == 5)
                for pair in pairs { #expect(pair.js == pair.server) }

                try await browser.open(app, "/galleries/\(gallery.id)")
                try await browser.waitForGalleryTiles(5)
                // The detail view shows the server's credit line, as it is.
                try await browser.waitFor("#gallery-grid .tile:nth-child(2) a").click()
                try await browser.waitUntil("the detail") { try await !browser.isHidden("#detail") }
                try await browser.waitUntil("the credit on screen") {
                    try await browser.text(of: "#detail-credit") == pairs[1].server.first
                }
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the gallery again") { try await browser.isHidden("#detail") }
                try await browser.waitFor("#gallery-credits").click()
                try await browser.waitUntil("the credits") {
                    try await browser.findAll("#credits-sheet[open] #credits-list .credits-item").count == 5
                }
                let warnings = try await browser.execute(
                    "return [...document.querySelectorAll('#credits-warnings li')].map(l => l.textContent)",
                    as: [String].self)
                #expect(
                    warnings == [
                        "1 of 5 items may not be used commercially: #2 “Fox & <b>hen</b>”.",
                        "1 of 5 items is all rights reserved, so ask the creator before any reuse: #5 “\(try await title(browser, 5))”.",
                        "1 of 5 items has an unknown licence, so do not reuse it without asking the creator: #3 “\(try await title(browser, 3))”.",
                    ])
                let texts = try await browser.execute(
                    "return [...document.querySelectorAll('#credits-list .credit-text')].map(p => p.textContent)",
                    as: [String].self)
                #expect(texts == pairs.map { $0.server.first ?? "" }, "the server's credit lines")
                #expect(try await browser.find("#credits-list b") == nil, "titles are text, not markup")
                let licences = try await browser.execute(
                    "return [...document.querySelectorAll('#credits-list .credits-item')].map(l => l.dataset.license)",
                    as: [String].self)
                #expect(licences == ["pixabay", "cc-by-nc-2.0", "unknown", "cc0", "all-rights-reserved"])
                #expect(
                    try await browser.text(of: "#credits-list .credits-item:nth-child(2) .credit-flags")
                        .contains("No commercial use"))
                #expect(
                    try await browser.text(of: "#credits-list .credits-item:nth-child(3) .credit-license")
                        .hasPrefix("Licence unknown"))
                let reservedFlags = try await browser.find("#credits-list .credits-item:nth-child(5) .credit-flags")
                #expect(reservedFlags == nil, "no yes/no flags for all rights reserved")
                #expect(
                    try await browser.execute(
                        "const r = document.querySelector('#credits-sheet').getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth"
                    ).bool == true, "the sheet fits the window")
                try await browser.saveScreenshot(named: "credits-\(width)x\(height)")

                // Copy text: rich text with the plain text beside it, the server's CREDITS.txt.
                let text = try await browser.executeAsync(
                    "fetch(`/api/galleries/\(gallery.id)/credits?format=text`).then(r => r.text()).then(arguments[0])"
                ).string
                try await browser.waitFor("#credits-sheet [data-copy=text]").click()
                try await browser.waitForToast({ $0 == "Credits copied" }, "copied")
                let copied = try await clipboard(browser)
                #expect(copied.types.contains("text/html") && copied.types.contains("text/plain"), "\(copied.types)")
                #expect(copied.text == text)
                try await browser.waitFor("#credits-sheet [data-copy=markdown]").click()
                try await browser.waitForToast({ $0 == "Credits copied as Markdown" }, "Markdown")
                #expect(try await clipboard(browser).text.hasPrefix("# Credits for “Book \\<cover\\>”\n"))
                try await browser.waitFor("#credits-sheet [data-copy=html]").click()
                try await browser.waitForToast({ $0 == "Credits copied as HTML" }, "HTML")
                let html = try await clipboard(browser).text
                #expect(html.hasPrefix("<ol class=\"credits\">\n<li><p class=\"attribution\">"))
                #expect(html.contains("Fox &amp; &lt;b&gt;hen&lt;/b&gt;"))

                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the sheet to close") {
                    try await browser.find("#credits-sheet[open]") == nil
                }
                try await browser.expectNoConsoleErrors()
            }
        }
    }

    @Test func theDetailViewCopiesEveryFormat() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.cdp(
                    "Browser.grantPermissions",
                    ["permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"], "origin": .string(app.base)])
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                try await browser.waitForTiles(atLeast: 1)
                try await browser.waitFor("#results .tile a").click()
                try await browser.waitFor("#detail-actions [data-action=copy-text]").click()
                try await browser.waitForToast({ $0 == "Attribution copied" }, "copied")
                let rich = try await clipboard(browser)
                #expect(rich.types.contains("text/html"), "rich text on the clipboard: \(rich.types)")
                #expect(rich.text == (try await browser.text(of: "#detail-credit")), "the credit on screen")
                #expect(rich.text.contains(" is licensed under the Pixabay Content License. "))
                #expect(rich.text.contains("Source: Pixabay, https://pixabay.com/"))

                try await browser.waitFor("#detail-actions [data-action=copy-markdown]").click()
                try await browser.waitForToast({ $0 == "Attribution copied as Markdown" }, "Markdown")
                let markdown = try await clipboard(browser).text
                #expect(
                    markdown.hasPrefix("“[") && markdown.contains("[the Pixabay Content License](https://pixabay.com/"))

                try await browser.waitFor("#detail-actions [data-action=copy-xml]").click()
                try await browser.waitForToast({ $0 == "Attribution copied as XML" }, "XML")
                let xml = try await clipboard(browser).text
                #expect(xml.hasPrefix("<attribution>\n  <title>") && xml.hasSuffix("</attribution>"))
                #expect(xml.contains("<license id=\"pixabay\" url=\"https://pixabay.com/"))
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    private func clipboard(_ browser: Browser) async throws -> Clipboard {
        try JSONDecoder().decode(
            Clipboard.self, from: JSONEncoder().encode(try await browser.executeAsync(Self.clipboard)))
    }

    /// The title of the gallery's `position`th item (1-based), as the page got it.
    private func title(_ browser: Browser, _ position: Int) async throws -> String {
        try await browser.execute(
            "return document.querySelector('#credits-list .credits-item:nth-child(\(position)) .credit-text').textContent.split('”')[0].slice(1)"
        ).string ?? ""
    }
}
