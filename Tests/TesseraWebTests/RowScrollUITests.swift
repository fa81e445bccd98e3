import Foundation
import TesseraWebDriver
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The rows of "All" on a desktop: previous/next buttons, and a mouse wheel that moves a row sideways when a
/// run of turns starts over it, without ever catching a page scroll that passes over rows.
@Suite("Rows in a browser", .chromedriver, .serialized)
struct RowScrollUITests {
    private static let firstRow = "#results section[data-section] .strip"

    private static func scrollLeft(_ browser: Browser, _ css: String = firstRow) async throws -> Double {
        try await browser.execute("return document.querySelector(arguments[0]).scrollLeft", [.string(css)]).double
            ?? -1
    }

    private static func pageY(_ browser: Browser) async throws -> Double {
        try await browser.execute("return scrollY").double ?? -1
    }

    private static func openAll(_ browser: Browser, _ app: WebApp) async throws {
        try await browser.open(app, "/search?q=dog&scope=all")
        try await browser.waitUntil("every section to settle", timeout: .seconds(20)) {
            let sections = try await browser.sections()
            return !sections.isEmpty && sections.allSatisfy { !$0.pending }
        }
    }

    @Test func previousAndNextMoveARowAPageAtATime() async throws {
        try await WebApp.run { app in
            try await withBrowser(width: 1280, height: 800, mobile: false) { browser in
                try await Self.openAll(browser, app)
                let previous = try await browser.waitFor("#results section .row-nav[aria-label^='Previous']")
                let next = try await browser.waitFor("#results section .row-nav[aria-label^='Next']")
                #expect(try await next.attribute("aria-label") == "Next Pixabay results")
                #expect(try await previous.property("disabled").bool == true, "at the start there is no previous")
                #expect(try await next.property("disabled").bool == false)
                let width =
                    try await browser.execute(
                        "return document.querySelector(arguments[0]).clientWidth", [.string(Self.firstRow)]
                    ).double ?? 0

                try await next.click()
                try await browser.waitUntil("the row to move a page") {
                    try await Self.scrollLeft(browser) > width / 2
                }
                try await browser.waitUntil("previous to be enabled") {
                    try await previous.property("disabled").bool == false
                }
                try await previous.click()
                try await browser.waitUntil("the row back at its start") {
                    try await Self.scrollLeft(browser) == 0
                }
                #expect(try await Self.pageY(browser) == 0, "the buttons move the row, not the page")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    @Test func aWheelRunStartingOverARowMovesTheRowAndOneStartingElsewhereThePage() async throws {
        try await WebApp.run { app in
            try await withBrowser(width: 1280, height: 800, mobile: false) { browser in
                try await Self.openAll(browser, app)
                let tile = try #require(try await browser.find(Self.firstRow + " .tile"))

                try await browser.wheel(on: tile, deltaY: 300)
                try await browser.waitUntil("the row to move sideways") { try await Self.scrollLeft(browser) > 0 }
                #expect(try await Self.pageY(browser) == 0, "the page stays where it was")

                // The latching rule, with wheel events dispatched from a script so their spacing is exact (a
                // driver's real turns can come further apart than a run allows on a busy machine). A run that
                // starts over the summary line and goes on over a row leaves the row alone; after a pause, a run
                // over a row at its start turning up is the page's; one turning down moves the row.
                try await Task.sleep(for: .seconds(1))
                _ = try await browser.execute(
                    "document.querySelector(arguments[0]).scrollLeft = 0", [.string(Self.firstRow)])
                let passing = try await browser.execute(
                    """
                    const row = document.querySelector(arguments[0]);
                    const turn = (target) => {
                      const event = new WheelEvent('wheel', { deltaY: 100, bubbles: true, cancelable: true });
                      target.dispatchEvent(event);
                      return event.defaultPrevented;
                    };
                    return [turn(document.querySelector('#summary')), turn(row.querySelector('.tile img')),
                            turn(row.querySelector('.tile img'))];
                    """, [.string(Self.firstRow)], as: [Bool].self)
                #expect(passing == [false, false, false], "a page run passing over a row is not the row's")
                #expect(try await Self.scrollLeft(browser) == 0)

                try await Task.sleep(for: .seconds(1))
                let turn = """
                    const row = document.querySelector(arguments[0]);
                    const event = new WheelEvent('wheel', { deltaY: arguments[1], bubbles: true, cancelable: true });
                    row.querySelector('.tile img').dispatchEvent(event);
                    return event.defaultPrevented;
                    """
                let up = try await browser.execute(turn, [.string(Self.firstRow), -100]).bool
                #expect(up == false, "a row at its start turning up leaves the wheel to the page")
                try await Task.sleep(for: .seconds(1))
                let down = try await browser.execute(turn, [.string(Self.firstRow), 100]).bool
                #expect(down == true, "a fresh run over a row that can move is the row's")
                try await browser.waitUntil("the row to move") { try await Self.scrollLeft(browser) > 0 }
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    /// A row draws the tiles that fill it as its section arrives and the rest (its tail) after (tails.js): in
    /// the end every result is in its row, in the service's order.
    @Test(arguments: [(1280, 800, false), (390, 844, true)])
    func everyResultOfARowIsDrawnInOrder(width: Int, height: Int, mobile: Bool) async throws {
        try await WebApp.run { app in
            let url = try #require(URL(string: app.url("/api/search?q=dog&scope=pixabay")))
            let (data, _) = try await URLSession.shared.data(from: url)
            let answer = try JSONDecoder().decode(Answer.self, from: data)
            let expected = try #require(answer.sections.first?.items.map(\.id))
            try #require(expected.count == 20)
            try await withBrowser(width: width, height: height, mobile: mobile) { browser in
                try await Self.openAll(browser, app)
                let row = "#results section[data-section='pixabay'] .strip .tile"
                try await browser.waitUntil("the Pixabay row to hold every result") {
                    try await browser.execute(
                        "return [...document.querySelectorAll(arguments[0])].map(t => t.dataset.id)", [.string(row)],
                        as: [String].self) == expected
                }
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    private struct Answer: Decodable {
        struct Section: Decodable {
            struct Item: Decodable { let id: String }
            let items: [Item]
        }
        let sections: [Section]
    }

    @Test func aPhoneSwipesAndShowsNoButtons() async throws {
        try await WebApp.run { app in
            try await withBrowser(width: 390, height: 844, mobile: true) { browser in
                try await Self.openAll(browser, app)
                let navs = try await browser.waitFor("#results section .row-navs")
                #expect(try await navs.cssValue("display") == "none")
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }
}
