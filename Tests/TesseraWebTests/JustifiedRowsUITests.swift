import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// Pictures in their shape: photos in justified rows keeping each one's proportions, nothing moving as images
/// arrive, covers as portraits and icons as icons, and who made it, where from and under what licence on
/// hover and focus.
@Suite("Justified rows in a browser", .chromedriver, .serialized)
struct JustifiedRowsUITests {
    /// Typical photos: 3:2, 4:3 and 2:3 in turn, then one panorama.
    static let shapes = [(3000, 2000), (2000, 1500), (2000, 3000), (1800, 1200), (1600, 1200), (4000, 1000)]

    static func records() -> [FakeRecord] {
        // One page of 20: the layout checked is the whole of it.
        (0..<20).map { index in
            let (width, height) = shapes[index % shapes.count]
            return FakeRecord(
                number: 70_000 + index, title: "dune \(index + 1)", tags: ["dune", "sand"],
                creator: "Creator \(index % 3)", width: width, height: height)
        }
    }

    /// Every tile's box: its item, left, top, width, height; and the grid's inner right edge.
    private struct Geometry: Decodable {
        struct Box: Decodable {
            let id: String
            let left, top, width, height: Double
        }
        let boxes: [Box]
        let right: Double
    }

    private static func geometry(_ browser: Browser) async throws -> Geometry {
        try await browser.execute(
            """
            const grid = document.querySelector('#results ul.grid');
            const style = getComputedStyle(grid);
            const right = grid.getBoundingClientRect().right - parseFloat(style.paddingRight);
            const boxes = [...grid.querySelectorAll('.tile:not(.skeleton)')].map(t => {
              const r = t.getBoundingClientRect();
              return { id: t.dataset.id, left: r.left, top: r.top + scrollY, width: r.width, height: r.height };
            });
            return { boxes, right };
            """, as: Geometry.self)
    }

    @Test(arguments: phoneAndDesktop.map { [$0.width, $0.height, $0.mobile ? 1 : 0] })
    func photosKeepTheirShapeInRowsThatFillTheWidth(size: [Int]) async throws {
        let records = Self.records()
        let ratio = Dictionary(
            uniqueKeysWithValues: records.map {
                ("pixabay:\($0.number)", min(2.5, max(0.5, Double($0.width) / Double($0.height))))
            })
        try await WebApp.run(configure: { $0.pixabay.state.corpus.set("dune", records: records) }) { app in
            try await withBrowser(width: size[0], height: size[1], mobile: size[2] == 1) { browser in
                try await browser.open(app, "/search?q=dune&scope=pixabay")
                try await browser.waitForTiles(atLeast: 20, loaded: false)
                let early = try await Self.geometry(browser)
                try await browser.waitUntil("every image") { try await browser.loadedImageCount() >= 20 }
                let settled = try await Self.geometry(browser)
                #expect(early.boxes.map(\.top) == settled.boxes.map(\.top), "nothing moved as images arrived")
                #expect(early.boxes.map(\.width) == settled.boxes.map(\.width))

                let rows = Dictionary(grouping: settled.boxes) { ($0.top * 2).rounded() / 2 }.sorted { $0.key < $1.key }
                #expect(rows.count >= 3)
                for (number, (_, row)) in rows.enumerated() {
                    let heights = row.map(\.height)
                    #expect((heights.max() ?? 0) - (heights.min() ?? 0) < 1.5, "row \(number): one height \(heights)")
                    for box in row {
                        let expected = try #require(ratio[box.id])
                        #expect(abs(box.width / box.height - expected) / expected < 0.03, "\(box.id) keeps its shape")
                    }
                    // Every row but the last reaches the right edge.
                    if number < rows.count - 1, let last = row.max(by: { $0.left < $1.left }) {
                        #expect(abs(last.left + last.width - settled.right) < 2, "row \(number) fills the width")
                    }
                }
                if size[2] == 1 {
                    // 3:2, 4:3 and 2:3 first: three across on a phone.
                    #expect(rows.first?.value.count == 3, "\(rows.first?.value.map(\.id) ?? [])")
                }
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func aTileShowsWhoWhereAndUnderWhatLicenceOnFocusAndTheListAlways() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                try await browser.open(app, "/search?q=fox&scope=pixabay")
                try await browser.waitForTiles(atLeast: 3)
                let caption = try await browser.waitFor("#results .tile:nth-child(2) .caption")
                #expect(try await caption.cssValue("opacity") == "0")
                _ = try await browser.execute("document.querySelector('#results .tile:nth-child(2) a').focus()")
                try await browser.waitUntil("the caption on focus") { try await caption.cssValue("opacity") == "1" }
                #expect(
                    try await browser.text(of: "#results .tile:nth-child(2) .caption-credit")
                        == "Creator 1 · Pixabay · Pixabay Content License")

                try await browser.waitFor("#view-list").click()
                let row = try await browser.text(of: "#results .tile:nth-child(2) .meta")
                #expect(row.hasPrefix("Creator 1 · Pixabay · Pixabay Content License · "), "\(row)")
                try await browser.waitFor("#view-grid").click()
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func filmsAreCoversAndAppsAreIcons() async throws {
        try await WebApp.run { app in
            try await withBrowser { browser in
                for (scope, shape, ratio) in [("movies", "cover", 2.0 / 3.0), ("apps", "icon", 1.0)] {
                    try await browser.open(app, "/search?q=fox&scope=\(scope)")
                    try await browser.waitForTiles(atLeast: 3, loaded: false)
                    let tiles = try await browser.execute(
                        """
                        return [...document.querySelectorAll('#results .tile:not(.skeleton)')].map(t => {
                          const r = t.getBoundingClientRect();
                          return [t.dataset.shape, r.width / r.height];
                        })
                        """)
                    let values = tiles.array ?? []
                    #expect(!values.isEmpty)
                    for value in values {
                        #expect(value.array?.first?.string == shape, "\(scope): \(value)")
                        let measured = value.array?.last?.double ?? 0
                        #expect(abs(measured - ratio) < 0.02, "\(scope): \(measured)")
                    }
                }
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }
}
