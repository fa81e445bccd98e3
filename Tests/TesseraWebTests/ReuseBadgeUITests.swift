import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// Whether a person may use each picture, said without hovering (docs/web.md, "Showing results"), in
/// Chromium at a phone's size (touch) and a desktop's: every result, gallery and link tile carries the
/// server's badge and its label in the link's name, in the grid and the list; the detail view says it on its
/// first screen; adding an all-rights-reserved item asks first; a link's dialog says what its visitors will
/// see of such items, and its page shows them as cards, asking for no picture.
@Suite("Reuse badges in a browser", .chromedriver, .serialized)
struct ReuseBadgeUITests {
    static let sizes = phoneAndDesktop.map { [$0.width, $0.height, $0.mobile ? 1 : 0] }

    /// Every drawn tile under `arguments[0]` against the items the server gave (`arguments[1]`, id → item):
    /// its badge and its link's name (the title and the label first), a badge inside its tile, legible (11 px or more, contrast 4.5 or more
    /// on any picture) and small beside the picture (`arguments[2]`: the largest share of the tile's area).
    static let tileCheck = """
        const [container, items, share] = arguments;
        const channels = (color) => color.match(/[\\d.]+/g).map(Number);
        const luminance = ([r, g, b]) => {
          const linear = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
          return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
        };
        const over = (color, under) => { const [r, g, b, a = 1] = channels(color);
          return [r, g, b].map((c, i) => c * a + under[i] * (1 - a)); };
        const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
          return (x + 0.05) / (y + 0.05); };
        const problems = [], badges = [];
        const tiles = [...document.querySelectorAll(container + ' .tile:not(.skeleton):not(.pending)')];
        for (const tile of tiles) {
          // A result's, a gallery item's or a link item's id; a link's card for a restricted item has no
          // tile link to name.
          const id = tile.dataset.id;
          const item = items[id];
          const badge = tile.querySelector('.badge');
          if (!badge) { problems.push(`${id}: no badge`); continue; }
          badges.push(badge.textContent);
          if (item && badge.textContent !== item.credit.badge) problems.push(`${id}: badge ${badge.textContent}`);
          if (!tile.classList.contains('restricted-card')) {
            const name = tile.querySelector('a').getAttribute('aria-label') ?? '';
            // A folded tile's name goes on: "…, also on Openverse".
            const named = `${item?.title} — ${item?.credit.label}`;
            if (item && name !== named && !name.startsWith(named + ', ')) problems.push(`${id}: name “${name}”`);
            if (!item && !/ — .+: .+/.test(name)) problems.push(`${id}: name “${name}”`);
          }
          const b = badge.getBoundingClientRect(), t = tile.getBoundingClientRect();
          if (!(b.width > 0 && b.height > 0)) { problems.push(`${id}: badge not shown`); continue; }
          if (b.left < t.left - 1 || b.right > t.right + 1 || b.top < t.top - 1 || b.bottom > t.bottom + 1) {
            problems.push(`${id}: badge outside its tile`);
          }
          if (b.width * b.height > share * t.width * t.height) problems.push(`${id}: badge covers the tile`);
          const style = getComputedStyle(badge);
          if (parseFloat(style.fontSize) < 11) problems.push(`${id}: ${style.fontSize} text`);
          const text = channels(style.color);
          const worst = Math.min(...[[255, 255, 255], [0, 0, 0]].map((under) =>
            ratio(text, over(style.backgroundColor, under))));
          if (worst < 4.5) problems.push(`${id}: contrast ${worst.toFixed(2)}`);
        }
        return { count: tiles.length, badges: [...new Set(badges)].sort(), problems };
        """

    struct TileReport: Decodable {
        let count: Int
        let badges: [String]
        let problems: [String]
    }

    /// The items of a search as the server answers them, id → item.
    static func items(_ browser: Browser, _ query: String) async throws -> JSONValue {
        try await browser.executeAsync(
            """
            const [query, done] = arguments;
            fetch('/api/search?' + query).then((r) => r.json()).then((answer) =>
              done(Object.fromEntries(answer.sections.flatMap((s) => s.items).map((i) => [i.id, i]))));
            """, [.string(query)])
    }

    static func checkTiles(_ browser: Browser, in container: String, items: JSONValue, share: Double = 0.3)
        async throws -> TileReport
    {
        let answer = try await browser.execute(tileCheck, [.string(container), items, .number(share)])
        return try JSONDecoder().decode(TileReport.self, from: JSONEncoder().encode(answer))
    }

    static func colourScheme(_ browser: Browser, _ scheme: String) async throws {
        try await browser.cdp(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": .string(scheme)]]])
    }

    /// Screenshots in both colour schemes, named `name-WxH-light` and `-dark`.
    static func screenshots(_ browser: Browser, _ name: String, _ size: [Int]) async throws {
        for scheme in ["light", "dark"] {
            try await colourScheme(browser, scheme)
            try await browser.saveScreenshot(named: "\(name)-\(size[0])x\(size[1])-\(scheme)")
        }
        try await colourScheme(browser, "light")
    }

    @Test(arguments: sizes)
    func everyResultTileShowsItsReuseInTheGridAndTheList(size: [Int]) async throws {
        try await WebApp.run { app in
            try await withBrowser(width: size[0], height: size[1], mobile: size[2] == 1) { browser in
                try await browser.open(app, "/search?q=fox&scope=all")
                try await browser.waitUntil("every section", timeout: .seconds(15)) {
                    let sections = try await browser.sections()
                    return !sections.isEmpty && sections.allSatisfy { !$0.pending }
                }
                try await browser.waitForTiles(atLeast: 6)
                // Flickr and Openverse share pictures: their copies fold into one tile, named with its licence.
                try await browser.waitUntil("the copies folded") {
                    try await browser.find("#results .tile.grouped") != nil
                }
                let items = try await Self.items(browser, "q=fox&scope=all")
                let grid = try await Self.checkTiles(browser, in: "#results", items: items)
                #expect(grid.count >= 12)
                #expect(grid.problems == [], "\(grid.problems.prefix(8))")
                // The stand-ins' licences: Pixabay's, CC BY, CC0 and CC BY-NC on Flickr, Openverse's six, a
                // store's artwork (©).
                for badge in ["Pixabay", "CC BY", "CC0", "©"] { #expect(grid.badges.contains(badge), "\(grid.badges)") }
                try await Self.screenshots(browser, "reuse-results-all", size)

                try await browser.open(app, "/search?q=fox&scope=flickr")
                try await browser.waitForTiles(atLeast: 6)
                try await browser.waitFor("#view-list").click()
                try await browser.waitFor("#results ul.tiles.list")
                let flickr = try await Self.items(browser, "q=fox&scope=flickr")
                let list = try await Self.checkTiles(browser, in: "#results", items: flickr, share: 0.5)
                #expect(list.count >= 20)
                #expect(list.problems == [], "\(list.problems.prefix(8))")
                #expect(try await browser.overflowsSideways() == false, "the list fits at \(size[0]) px")
                try await Self.screenshots(browser, "reuse-results-list", size)
                try await browser.waitFor("#view-grid").click()
                try await browser.expectNoConsoleErrors()
            }
        }
    }

    @Test(arguments: sizes)
    func theDetailViewSaysItOnItsFirstScreen(size: [Int]) async throws {
        try await WebApp.run { app in
            try await withBrowser(width: size[0], height: size[1], mobile: size[2] == 1) { browser in
                for (scope, label) in [
                    ("pixabay", "Pixabay Content License: you may reuse it freely"),
                    ("movies", "All rights reserved: ask the creator before any reuse"),
                ] {
                    try await browser.open(app, "/search?q=fox&scope=\(scope)")
                    try await browser.waitForTiles(atLeast: 2, loaded: false)
                    let items = try await Self.items(browser, "q=fox&scope=\(scope)")
                    let link = try await browser.waitFor("#results .tile:nth-child(2) a")
                    let id = try #require(try await link.attribute("data-item"))
                    let item = try #require(items[id])
                    try await link.click()
                    try await browser.waitUntil("the detail") {
                        try await browser.text(of: "#detail-title") == item["title"]?.string
                    }
                    let credit = try #require(item["credit"])
                    #expect(credit["label"]?.string == label)
                    #expect(try await browser.text(of: "#detail-reuse-label") == label)
                    #expect(try await browser.text(of: "#detail-badge") == credit["badge"]?.string)
                    let fold = try await browser.execute(
                        """
                        const line = document.querySelector('#detail-reuse').getBoundingClientRect();
                        return { bottom: line.bottom, top: line.top, height: innerHeight, shown: line.height > 0 };
                        """)
                    #expect(fold["shown"]?.bool == true)
                    #expect((fold["top"]?.double ?? -1) >= 0)
                    let bottom = fold["bottom"]?.double ?? .infinity
                    #expect(bottom < (fold["height"]?.double ?? 0), "above the fold: \(fold)")
                    #expect(try await browser.text(of: "#detail-license") == credit["licenseName"]?.string)
                    let deed = try await browser.execute(
                        "return document.querySelector('#detail-license a')?.href ?? null")
                    #expect(deed.string == credit["deed"]?.string)
                    #expect(try await browser.text(of: "#detail-credit") == credit["text"]?.string)
                    try await Self.screenshots(browser, "reuse-detail-\(scope)", size)
                    try await browser.pressKeys(Key.escape)
                    try await browser.waitUntil("the results") { try await browser.isHidden("#detail") }
                }
                try await browser.expectNoConsoleErrors()
            }
        }
    }

    @Test(arguments: sizes)
    func addingAnAllRightsReservedItemAsksOnce(size: [Int]) async throws {
        try await WebApp.run { app in
            try await withBrowser(width: size[0], height: size[1], mobile: size[2] == 1) { browser in
                try await browser.open(app, "/search?q=fox&scope=movies")
                let gallery = try await browser.createGallery("Reference")
                try await browser.waitForTiles(atLeast: 2, loaded: false)
                let itemID = try #require(
                    try await browser.find("#results .tile:nth-child(1) a")?.attribute("data-item"))
                let add: @Sendable () async throws -> Void = {
                    let button = try await browser.waitFor("#results .tile:nth-child(1) .tile-add")
                    if size[2] == 1 { try await browser.tap(on: button) } else { try await button.click() }
                    try await browser.waitFor("#picker-list [data-gallery='\(gallery.id)']").click()
                    try await browser.waitUntil("the question") {
                        try await browser.execute("return document.querySelector('#confirm-dialog').open").bool == true
                    }
                }

                try await add()
                #expect(try await browser.text(of: "#confirm-title") == "All rights reserved — keep it for reference?")
                let message = try await browser.text(of: "#confirm-message")
                #expect(message.contains("exports leave its file out"), "\(message)")
                #expect(message.contains("a card with its title, creator and source instead of the picture"))
                #expect(try await browser.activeElement()?.attribute("id") == "confirm-no", "Cancel has the focus")
                try await Self.screenshots(browser, "reuse-keep-dialog", size)
                try await browser.waitFor("#confirm-no").click()
                try await browser.waitForToast({ $0 == "Not added to Reference" }, "Not added")
                #expect(try await browser.gallery(gallery.id).items?.isEmpty == true, "Cancel adds nothing")

                try await add()
                #expect(try await browser.text(of: "#confirm-yes") == "Keep for reference")
                try await browser.waitFor("#confirm-yes").click()
                try await browser.waitForToast({ $0 == "Added to Reference" }, "Added")
                let stored = try await browser.api("GET", "/api/galleries/\(gallery.id)")["items"]?.array ?? []
                #expect(stored.map { $0["item"]?["id"]?.string } == [itemID])
                #expect(stored.first?["restricted"]?.bool == true, "the gallery keeps it as restricted")
                try await browser.expectNoConsoleErrors()
            }
        }
    }

    @Test(arguments: sizes)
    func galleryAndLinkTilesCarryBadgesAndARestrictedItemIsACard(size: [Int]) async throws {
        let (width, height, mobile) = (size[0], size[1], size[2] == 1)
        try await WebApp.run(setting: PublicLinkUITests.settings, users: [PublicLinkUITests.owner]) { app in
            let owner = PublicLinkUITests.owner
            let (url, film) = try await withBrowser(width: width, height: height, mobile: mobile) { browser in
                try await browser.signIn(app, owner.name, owner.password)
                let gallery = try await browser.createGallery("Harbour")
                let picked = try await browser.executeAsync(
                    """
                    const [gallery, done] = arguments;
                    (async () => {
                      const first = async (scope) =>
                        (await (await fetch(`/api/search?q=fox&scope=${scope}`)).json()).sections[0].items;
                      const items = [...(await first('pixabay')).slice(0, 2), (await first('movies'))[0]];
                      for (const item of items) {
                        const answer = await fetch(`/api/galleries/${gallery}/items`, { method: 'POST',
                          headers: { 'content-type': 'application/json' }, body: JSON.stringify({ item }) });
                        if (!answer.ok) throw new Error(await answer.text());
                      }
                      done(items[2]);
                    })().catch((error) => done(String(error)));
                    """, [.string(gallery.id)])
                let film = try #require(picked["credit"] != nil ? picked : nil, "\(picked)")
                let items = try await browser.api("GET", "/api/galleries/\(gallery.id)")["items"]?.array ?? []
                #expect(items.map { $0["restricted"]?.bool } == [false, false, true], "the film is restricted")
                try await browser.open(app, "/galleries/\(gallery.id)")
                try await browser.waitForGalleryTiles(3)
                let pairs = items.compactMap { entry in
                    entry["id"]?.string.flatMap { id in entry["item"].map { (id, $0) } }
                }
                let byID = JSONValue.object(Dictionary(uniqueKeysWithValues: pairs))
                let tiles = try await Self.checkTiles(browser, in: "#gallery-grid", items: byID)
                #expect(tiles.count == 3 && tiles.problems == [], "\(tiles.problems)")
                #expect(tiles.badges == ["Pixabay", "©"])
                try await Self.screenshots(browser, "reuse-gallery", size)

                try await browser.waitUntil("the Share button") { try await !browser.isHidden("#gallery-share") }
                try await browser.waitFor("#gallery-share").click()
                try await browser.waitFor("#links-new").click()
                try await browser.waitUntil("the form") { try await !browser.isHidden("#link-form") }
                try await #require(try await browser.find("#link-form button[type=submit]")).click()
                let note = try await browser.waitFor("#links-list .link-row[data-kind=view] .link-restricted")
                #expect(
                    try await note.text
                        == "1 picture is all rights reserved or of unknown licence: visitors see a card with the "
                        + "title, creator and a link to the source, not the picture.")
                #expect(try await !browser.overflowsSideways())
                try await Self.screenshots(browser, "reuse-link-dialog", size)
                let link = try await browser.api("GET", "/api/galleries/\(gallery.id)/links")["links"]?.array ?? []
                #expect(link.first?["restrictedCount"]?.int == 1)
                try await browser.expectNoConsoleErrors()
                return (app.url(link.first?["url"]?.string ?? ""), film)
            }

            try await withBrowser(width: width, height: height, mobile: mobile) { visitor in
                try await visitor.openPublic(app, url)
                try await visitor.waitUntil("two pictures and a card") {
                    try await visitor.execute(
                        """
                        const tiles = [...document.querySelectorAll('#public-grid .tile:not(.restricted-card)')];
                        return tiles.length === 2 && document.querySelectorAll('#public-grid .restricted-card').length === 1
                          && tiles.every((t) => { const i = t.querySelector('img'); return i && i.complete && i.naturalWidth > 0; });
                        """
                    ).bool == true
                }
                let card = "#public-grid .restricted-card"
                #expect(try await visitor.find("\(card) img") == nil, "no picture for it")
                #expect(try await visitor.text(of: "\(card) .card-title") == film["title"]?.string)
                #expect(try await visitor.text(of: "\(card) .card-label") == film["credit"]?["label"]?.string)
                #expect(try await visitor.text(of: "\(card) .badge") == "©")
                let source = try await visitor.waitFor("\(card) a.card-source")
                #expect(try await source.text == "View at source")
                #expect(try await source.attribute("href") == film["pageURL"]?.string)
                let slug = try #require(URL(string: url)).path
                let images = try await visitor.execute(
                    """
                    return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)
                      .filter((path) => path.startsWith(arguments[0] + '/img/'))
                    """, [.string(slug)], as: [String].self)
                #expect(images.count == 2, "only the two pictures' images are asked for: \(images)")
                let items = try await visitor.executeAsync(
                    """
                    const [slug, done] = arguments;
                    fetch(`/api/shared/${slug}`).then((r) => r.json()).then((answer) =>
                      done(Object.fromEntries(answer.items.map((i) => [i.id, i.item]))));
                    """, [.string(String(slug.dropFirst(3)))])
                let tiles = try await Self.checkTiles(visitor, in: "#public-grid", items: items)
                #expect(tiles.count == 3 && tiles.problems == [], "\(tiles.problems)")
                #expect(try await !visitor.overflowsSideways())
                try await Self.screenshots(visitor, "reuse-public", size)
                try await visitor.expectNoConsoleErrors()
            }
        }
    }
}
