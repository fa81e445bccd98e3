import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Copies of one picture, named right: the folded tile is its representative's own, in its own section's row
/// (a Commons file never stands in Openverse's), "also on" never names that row, and "Most permissive licence"
/// marks a copy only when the copies' licences differ. The server chooses the representative.
extension OnlyWhatYouMayUseUITests {
    struct Answer: Decodable {
        struct Section: Decodable {
            struct Result: Decodable {
                struct Image: Decodable { let url: String }
                struct License: Decodable { let id: String? }
                let id: String
                let pageURL: String?
                let thumbnail: Image?
                let license: License?
            }
            let id: String
            let items: [Result]
        }
        let sections: [Section]
    }

    static let titles = ["flickr": "Flickr", "openverse": "Openverse", "wikimedia": "Wikimedia Commons"]
    static let freeOfConditions: Set<String> = ["cc0", "pdm", "public-domain"]

    /// "kite" in All as `/api/search` answers it (nothing prefetched), every item by id.
    static func kite(_ app: WebApp) async throws -> [String: Answer.Section.Result] {
        let url = try #require(URL(string: app.url("/api/search?q=kite&scope=all&page=1")))
        let (data, _) = try await URLSession.shared.data(from: url)
        let items = try JSONDecoder().decode(Answer.self, from: data).sections.flatMap(\.items)
        return Dictionary(items.map { ($0.id, $0) }) { first, _ in first }
    }

    /// The folded tiles: id, the section of the row it stands in, its "also on" line.
    static func foldedTiles(_ browser: Browser) async throws -> [[String]] {
        try await browser.execute(
            """
            return [...document.querySelectorAll('#results .tile.grouped')].map(t => [t.dataset.id,
              t.closest('section')?.dataset.section ?? '', t.querySelector('.tile-copies')?.textContent ?? ''])
            """, as: [[String]].self)
    }

    @Test(arguments: phoneAndDesktop.map { [$0.width, $0.height, $0.mobile ? 1 : 0] })
    func aFoldedTileStandsInItsOwnRowAndNeverNamesIt(size: [Int]) async throws {
        try await WebApp.run(setting: ["TESSERA_IMAGE_PREFETCH_WAIT": "60"]) { app in
            // A Commons file in the public domain that looks like Openverse's copy of a Flickr photo under
            // CC BY or BY-NC: one picture, whose most permissive copy is Commons', after Openverse's row.
            let items = try await Self.kite(app)
            let free = { (item: Answer.Section.Result?) in Self.freeOfConditions.contains(item?.license?.id ?? "") }
            let commons = try #require(
                items.values.filter { $0.id.hasPrefix("wikimedia:") && free($0) }.min { $0.id < $1.id })
            let copy = try #require(
                items.values.filter { item in
                    let photo = item.pageURL?.split(separator: "/").last.map { "flickr:\($0)" } ?? ""
                    return item.id.hasPrefix("openverse:") && !free(item) && items[photo] != nil && !free(items[photo])
                }.min { $0.id < $1.id })
            let same = Set(try [commons, copy].map(Self.upstreamPath))
            app.standInServer.images = { path in
                same.contains(path) ? StandInImage.pattern(seed: 11) : StandInImage.distinct(for: path)
            }
            try await withBrowser(width: size[0], height: size[1], mobile: size[2] == 1) { browser in
                let stream = try await GroupsUITests.openFolded(browser, app)
                try await browser.waitUntil("the Commons file folded", timeout: .seconds(30)) {
                    try await Self.foldedTiles(browser).contains { $0[0] == commons.id }
                }
                let group = try #require(stream.groups.first { $0.items.contains(commons.id) })
                try #require(group.representative == commons.id, "the public-domain copy allows the most: \(group)")
                let tiles = try await Self.foldedTiles(browser)
                let tile = try #require(tiles.first { $0[0] == commons.id })
                #expect(tile[1] == "wikimedia", "in its own row, not Openverse's: \(tile)")
                #expect(tile[2] == "also on Flickr, Openverse", "\(tile)")
                for group in stream.groups {
                    let tile = try #require(tiles.first { $0[0] == group.representative }, "\(group)")
                    #expect(tile[1] == GroupsUITests.section(of: group.representative), "\(tile)")
                    let own = try #require(Self.titles[tile[1]])
                    #expect(tile[2].hasPrefix("also on ") && !tile[2].contains(own), "never its own row: \(tile)")
                }
                try await browser.execute(
                    "document.querySelector('#results .tile[data-id=\"' + arguments[0] + '\"]').scrollIntoView()",
                    [.string(commons.id)])
                try await browser.saveScreenshot(named: "groups-own-row-\(size[0])x\(size[1])")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test(arguments: phoneAndDesktop.map { [$0.width, $0.height, $0.mobile ? 1 : 0] })
    func mostPermissiveOnlyWhenTheCopiesLicencesDiffer(size: [Int]) async throws {
        try await WebApp.run { app in
            let items = try await Self.kite(app)
            try await withBrowser(width: size[0], height: size[1], mobile: size[2] == 1) { browser in
                let stream = try await GroupsUITests.openFolded(browser, app)
                let licences = { (group: GroupsUITests.Group) in Set(group.items.map { items[$0]?.license?.id ?? "" }) }
                let alike = try #require(stream.groups.first { licences($0).count == 1 }, "copies under one licence")
                let unlike = try #require(stream.groups.first { licences($0).count > 1 }, "copies under two")
                for (group, marked) in [(alike, false), (unlike, true)] {
                    try await browser.waitFor("#results a[data-item='\(group.representative)']").click()
                    try await browser.waitUntil("the copies") { try await !browser.isHidden("#detail-copies") }
                    let rows = try await browser.execute(
                        """
                        return [...document.querySelectorAll('#detail-copies-list li')]
                          .map(li => li.querySelector('.copy-best')?.textContent ?? '')
                        """, as: [String].self)
                    #expect(rows.count == group.items.count)
                    let expected = group.items.indices.map { $0 == 0 && marked ? "Most permissive licence" : "" }
                    #expect(rows == expected, "\(group): \(rows)")
                    if marked {
                        try await browser.saveScreenshot(named: "copies-most-permissive-\(size[0])x\(size[1])")
                    }
                    try await browser.pressKeys(Key.escape)
                    try await browser.waitUntil("the results") { try await browser.isHidden("#detail") }
                }
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    /// The image host's path a signed `/img/thumb/...` URL stands for, as the host is asked for it.
    static func upstreamPath(_ item: Answer.Section.Result) throws -> String {
        let url = try #require(item.thumbnail?.url)
        let encoded = try #require(url.split(separator: "/").last.map(String.init))
        var text = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        let source = String(decoding: try #require(Data(base64Encoded: text)), as: UTF8.self)
        // As the request names it: `URL.path` drops Openverse's trailing slash (`…/thumb/`).
        return try #require(URLComponents(string: source)?.path)
    }
}
