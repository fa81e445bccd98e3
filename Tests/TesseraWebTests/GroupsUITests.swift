import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One picture, shown once: the copies the search stream's `groups` event names fold into one tile, and the
/// detail view lists them. The stand-in Openverse re-publishes the Flickr stand-in's photos (its landing pages
/// name them), so the groups are known by identity; every address serves a picture of its own, so none groups
/// by look.
@Suite("Copies of one picture in a browser", .chromedriver, .serialized)
struct GroupsUITests {
    struct Group: Decodable {
        let items: [String]
        let representative: String
    }

    struct StreamItem: Decodable {
        struct Credit: Decodable { let label: String }
        let id: String
        let title: String
        let pageURL: String?
        let credit: Credit
    }

    struct StreamSection: Decodable {
        let id: String
        let items: [StreamItem]
    }

    struct Stream: Decodable {
        let sections: [StreamSection]
        let groups: [Group]
    }

    /// The stream the page read, read again by the test (the same answer: the server groups by identity).
    static func stream(_ browser: Browser, _ query: String) async throws -> Stream {
        let value = try await browser.executeAsync(
            """
            const done = arguments[arguments.length - 1];
            fetch(arguments[0]).then(r => r.text()).then(text => {
              const events = text.split('\\n\\n').map(block => {
                const event = block.match(/^event: (.*)$/m)?.[1];
                const data = block.match(/^data: (.*)$/m)?.[1];
                return { event, data: data ? JSON.parse(data) : null };
              });
              done({ sections: events.filter(e => e.event === 'section').map(e => e.data),
                     groups: events.find(e => e.event === 'groups').data.groups });
            }, error => done({ error: String(error) }));
            """, [.string("/api/search/stream?\(query)")])
        return try JSONDecoder().decode(Stream.self, from: JSONEncoder().encode(value))
    }

    static let titles = ["flickr": "Flickr", "openverse": "Openverse"]

    /// The section a stand-in item is shown under, by its id's source.
    static func section(of id: String) -> String { String(id.split(separator: ":")[0]) }

    /// Searches everything for "kite" and waits until the page has folded its groups.
    static func openFolded(_ browser: Browser, _ app: WebApp) async throws -> Stream {
        try await browser.open(app, "/search?q=kite&scope=all")
        try await browser.waitUntil("the copies to fold", timeout: .seconds(30)) {
            try await browser.text(of: "#summary").contains("shown with")
        }
        let stream = try await stream(browser, "q=kite&scope=all&page=1")
        try #require(!stream.groups.isEmpty, "the stand-ins give groups")
        return stream
    }

    static func tiles(_ browser: Browser) async throws -> [[String]] {
        try await browser.execute(
            """
            return [...document.querySelectorAll('#results .tile:not(.skeleton)')].map(t => [t.dataset.id,
              t.closest('section')?.dataset.section ?? '', t.querySelector('.tile-copies')?.textContent ?? '',
              t.querySelector('a').getAttribute('aria-label') ?? ''])
            """, as: [[String]].self)
    }

    @Test(arguments: [(390, 844, true), (1280, 800, false)])
    func eachPictureShowsOnceInItsOwnRow(width: Int, height: Int, mobile: Bool) async throws {
        try await WebApp.run { app in
            try await withBrowser(width: width, height: height, mobile: mobile) { browser in
                let stream = try await Self.openFolded(browser, app)
                let tiles = try await Self.tiles(browser)
                let shown = tiles.map { $0[0] }
                let items = Dictionary(stream.sections.flatMap(\.items).map { ($0.id, $0) }) { first, _ in first }
                for group in stream.groups {
                    #expect(shown.filter(group.items.contains) == [group.representative], "one tile: \(group)")
                    let tile = try #require(tiles.first { $0[0] == group.representative })
                    // The representative's own tile, in its own section's row (the server chose it).
                    #expect(tile[1] == Self.section(of: group.representative), "\(tile)")
                    let others = Set(group.items.dropFirst().map(Self.section(of:)))
                        .subtracting([Self.section(of: group.representative)]).compactMap { Self.titles[$0] }.sorted()
                    #expect(tile[2] == "also on \(others.joined(separator: ", "))")
                    let item = try #require(items[group.representative])
                    // The link's name: the title, what its licence allows, and where else it is.
                    #expect(
                        tile[3] == "\(item.title) — \(item.credit.label), also on \(others.joined(separator: " and "))")
                }
                #expect(
                    stream.groups.contains { Self.section(of: $0.representative) == "openverse" },
                    "some copy on Openverse allows more than Flickr's photo, so it is the one shown")

                // Every Openverse result is a copy of a Flickr photo: each picture stands once, in the row of the
                // copy shown, folded or not.
                let openverse = stream.sections.first { $0.id == "openverse" }?.items.map(\.id) ?? []
                let grouped = Set(stream.groups.flatMap(\.items))
                #expect(!openverse.isEmpty && openverse.allSatisfy(grouped.contains))
                let pictures = tiles.filter { ["pixabay", "flickr", "openverse", "wikimedia"].contains($0[1]) }
                #expect(pictures.allSatisfy { $0[1] == Self.section(of: $0[0]) }, "\(pictures)")

                // The count stays the count of results; the copies are said apart.
                let copies = stream.groups.map { $0.items.count - 1 }.reduce(0, +)
                let summary = try await browser.text(of: "#summary")
                #expect(summary.hasPrefix("\(items.count) loaded from"), "\(summary)")
                #expect(summary.contains("\(copies) copies shown with their pictures"), "\(summary)")
                #expect(shown.count == items.count - copies)

                // The line sits on the picture, inside its tile, at a phone's width too.
                let inside = try await browser.execute(
                    """
                    return [...document.querySelectorAll('#results .tile-copies')].every(line => {
                      const a = line.getBoundingClientRect(), b = line.closest('.tile').getBoundingClientRect();
                      return a.width > 0 && a.left >= b.left - 0.5 && a.right <= b.right + 0.5
                        && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
                    })
                    """
                ).bool
                #expect(inside == true)
                try await browser.saveScreenshot(named: "groups-\(width)x\(height)")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func theDetailViewListsEveryCopyAndSavesTheOneChosen() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                let stream = try await Self.openFolded(browser, app)
                let picks = try await browser.createGallery("Picks")
                let items = Dictionary(stream.sections.flatMap(\.items).map { ($0.id, $0) }) { first, _ in first }
                // A picture whose copy on Openverse allows the most, so the one chosen below is Flickr's.
                let group = try #require(stream.groups.first { Self.section(of: $0.representative) == "openverse" })
                let representative = try #require(items[group.representative])
                let flickr = try #require(group.items.first { Self.section(of: $0) == "flickr" }.flatMap { items[$0] })

                try await browser.waitFor("#results a[data-item='\(group.representative)']").click()
                try await browser.waitUntil("the copies") { try await !browser.isHidden("#detail-copies") }
                let rows = try await browser.execute(
                    """
                    return [...document.querySelectorAll('#detail-copies-list li')].map(li => [li.dataset.copy,
                      li.querySelector('.copy-service').textContent, li.querySelector('.copy-best')?.textContent ?? '',
                      li.querySelector('.copy-words').textContent, li.querySelector('a')?.getAttribute('href') ?? '',
                      li.getAttribute('aria-current') ?? ''])
                    """, as: [[String]].self)
                #expect(rows.map { $0[0] } == group.items, "every copy, the most permissive first")
                #expect(rows.map { $0[1] } == group.items.map { Self.titles[Self.section(of: $0)] ?? "" })
                #expect(rows.map { $0[2] } == ["Most permissive licence"] + Array(repeating: "", count: rows.count - 1))
                #expect(rows.allSatisfy { !$0[3].isEmpty }, "each licence in plain words")
                #expect(rows.map { $0[4] } == group.items.map { items[$0]?.pageURL ?? "" })
                #expect(rows.map { $0[5] } == group.items.map { $0 == group.representative ? "true" : "" })
                #expect(try await browser.text(of: "#detail-title") == representative.title)

                // Choosing Flickr's copy shows it: its page, its credit, and Save adds that copy.
                let credit = try await browser.text(of: "#detail-credit")
                try await browser.waitFor("#detail-copies-list li[data-copy='\(flickr.id)'] button").click()
                let native = flickr.id.split(separator: ":", maxSplits: 1)[1]
                try await browser.waitUntil("Flickr's copy") {
                    try await browser.currentURL == app.url("/item/flickr/\(native)")
                }
                #expect(try await browser.text(of: "#detail-page") == "View on Flickr")
                let chosenCredit = try await browser.text(of: "#detail-credit")
                #expect(chosenCredit != credit && chosenCredit.contains("Flickr"), "\(chosenCredit)")
                #expect(
                    try await browser.find("#detail-copies-list li[aria-current][data-copy='\(flickr.id)']") != nil)
                try await browser.waitFor("#detail-actions [data-action=add-to-gallery]").click()
                try await browser.waitFor("#picker-list [data-gallery='\(picks.id)']").click()
                try await browser.waitForToast({ $0 == "Added to Picks" }, "Added to Picks")
                #expect(try await browser.gallery(picks.id).items?.map(\.item.id) == [flickr.id])

                // Back returns to the results, as before choosing.
                try await browser.pressKeys(Key.escape)
                try await browser.waitUntil("the results") { try await browser.isHidden("#detail") }
                #expect(try await browser.currentURL == app.url("/search?q=kite&scope=all"))
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    struct Page: Decodable {
        struct Section: Decodable {
            struct Result: Decodable {
                struct Image: Decodable { let url: String }
                let id: String
                let thumbnail: Image
            }
            let items: [Result]
        }
        let sections: [Section]
    }

    /// One page of a search as `/api/search` answers it (nothing is prefetched for it).
    static func page(_ app: WebApp, _ query: String) async throws -> [Page.Section.Result] {
        let url = try #require(URL(string: app.url("/api/search?\(query)")))
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONDecoder().decode(Page.self, from: data).sections.first?.items ?? []
    }

    /// The image host's path a signed `/img/thumb/...` URL stands for.
    static func upstreamPath(_ item: Page.Section.Result) throws -> String {
        let encoded = try #require(item.thumbnail.url.split(separator: "/").last.map(String.init))
        var text = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        let source = String(decoding: try #require(Data(base64Encoded: text)), as: UTF8.self)
        return try #require(URL(string: source)?.path)
    }

    @Test func aServicesGridFoldsEachPagesCopiesAsThePagesLoad() async throws {
        try await WebApp.run { app in
            // Two results of page 2 show one picture, and so does one of page 1: the server groups a page, so
            // only page 2's two fold.
            let first = try await Self.page(app, "q=fox&scope=pixabay&page=1")
            let second = try await Self.page(app, "q=fox&scope=pixabay&page=2")
            try #require(first.count == 20 && second.count == 20)
            let twins = [second[3].id, second[7].id]
            let same = Set(try [first[2], second[3], second[7]].map(Self.upstreamPath))
            app.standInServer.images = { path in
                same.contains(path) ? StandInImage.pattern(seed: 7) : StandInImage.distinct(for: path)
            }
            try await withBrowser(width: 390, height: 844, mobile: true) { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                try await browser.waitUntil("every page, its copies folded", timeout: .seconds(40)) {
                    try await browser.execute("window.scrollTo(0, document.body.scrollHeight)")
                    let summary = try await browser.text(of: "#summary")
                    return try await !browser.isHidden("#end") && summary.contains("shown with")
                }
                let tiles = try await Self.tiles(browser)
                let ids = tiles.map { $0[0] }
                #expect(ids.count == 44, "45 results, one folded")
                #expect(ids.contains(first[2].id), "a copy on another page is not folded")
                let kept = try #require(tiles.first { twins.contains($0[0]) })
                #expect(!ids.contains(twins.first { $0 != kept[0] } ?? ""))
                #expect(kept[2] == "2 copies here")
                #expect(
                    try await browser.text(of: "#summary").hasPrefix("All 45 loaded · 1 copy shown with its picture")
                )
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }
}
