import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// A service that fails costs one request per page asked, and the page says why (docs/web.md, "Failures").
@Suite("A failing service in a browser", .chromedriver, .serialized)
struct FailingServiceUITests {
    /// How Pixabay fails in a test: its address a loopback port that refuses connections, or its stand-in
    /// answering 500.
    enum Failure: String, CaseIterable, Sendable {
        case unreachable
        case serverError

        var sentence: String {
            switch self {
            case .unreachable: "Couldn’t reach Pixabay."
            case .serverError: "Pixabay is having trouble right now."
            }
        }
    }

    @Test(arguments: Failure.allCases)
    func aSingleServiceThatFailsIsAskedOncePerPageAndThePageSaysWhy(failure: Failure) async throws {
        let closed = try LoopbackSocket()
        defer { closed.close() }
        let setting =
            failure == .unreachable ? ["TESSERA_PIXABAY_URL": "http://127.0.0.1:\(closed.port)/pixabay/api/"] : [:]
        try await WebApp.run(
            configure: { $0.pixabay.state.behavior = failure == .serverError ? .serverError : .normal },
            setting: setting
        ) { app in
            let size = failure == .unreachable ? phoneAndDesktop[0] : phoneAndDesktop[1]
            try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                try await Self.holdTheCountdown(browser)
                try await browser.open(app, "/search?q=volcano&scope=pixabay")
                try await browser.waitFor(".page-failure", timeout: .seconds(20))
                let asked: @Sendable () async throws -> Int = { try await Self.askedPixabay(app, browser, failure) }
                #expect(try await asked() == 1)
                #expect(try await browser.text(of: ".page-failure .banner-text") == failure.sentence)
                #expect(try await browser.text(of: ".page-failure button") == "Try again")
                #expect(try await browser.text(of: ".page-failure .countdown") == "Trying again in 10 s")
                #expect(try await browser.isHidden("#load-more"), "Try again, not Load more")
                #expect(try await browser.isHidden("#end"))
                #expect(try await browser.find("#results .empty") == nil, "a failure is not “No results”")
                let page = try await browser.text(of: "body")
                #expect(!page.contains("your address") && !page.contains("Too many"), "the person is not blamed")

                // Nothing asks again by itself: not the next frame, not the end of the page coming into view.
                try await Task.sleep(for: .seconds(3))
                #expect(try await asked() == 1, "one request for page 1")
                try await browser.execute("window.scrollTo(0, document.body.scrollHeight)")
                try await Task.sleep(for: .seconds(1))
                #expect(try await asked() == 1, "still one request after scrolling to the end")
                #expect(try await Self.searchesSent(browser) == 1, "the page asked this server once")

                try await Self.saveLightAndDark(
                    browser, "failed-service-\(failure.rawValue)-\(size.width)x\(size.height)")

                // Try again asks once more, and the line comes back.
                try await browser.waitFor(".page-failure button").click()
                try await browser.waitUntil("the second request") { try await asked() == 2 }
                try await browser.waitFor(".page-failure", timeout: .seconds(20))
                try await Task.sleep(for: .seconds(2))
                #expect(try await asked() == 2, "one more request per press")
                #expect(try await Self.searchesSent(browser) == 2)
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    /// A later page that fails leaves Try again where Load more was; pressed once the service is back, the page
    /// comes and paging goes on.
    @Test func aLaterPageThatFailsLeavesTryAgainAndIsAskedOnce() async throws {
        try await WebApp.run(configure: { standIns in
            standIns.pixabay.state.corpus.set("volcano", total: 45)
            standIns.pixabay.state.setBehavior(.serverError, forPage: 2)
        }) { app in
            try await withBrowser { browser in
                try await Self.holdTheCountdown(browser)
                try await browser.open(app, "/search?q=volcano&scope=pixabay")
                try await browser.waitForTiles(atLeast: 20, loaded: false)
                let pages = {
                    app.standIns.pixabay.state.requests.filter { $0["q"] == "volcano" }.compactMap { $0["page"] }
                }
                try await browser.waitUntil("page 2 to fail", timeout: .seconds(20)) {
                    try await browser.execute("window.scrollTo(0, document.body.scrollHeight)")
                    return try await browser.find(".page-failure") != nil
                }
                #expect(
                    try await browser.text(of: ".page-failure .banner-text") == "Pixabay is having trouble right now.")
                #expect(try await browser.isHidden("#load-more"), "Try again, not Load more")
                try await Task.sleep(for: .seconds(2))
                try await browser.execute("window.scrollTo(0, document.body.scrollHeight)")
                try await Task.sleep(for: .seconds(1))
                #expect(pages() == ["1", "2"], "page 2 asked once")
                #expect(try await browser.tileCount() == 20, "page 1 stays")

                app.standIns.pixabay.state.setBehavior(.normal, forPage: 2)
                try await browser.waitFor(".page-failure button").click()
                try await browser.waitUntil("every result", timeout: .seconds(20)) {
                    try await browser.execute("window.scrollTo(0, document.body.scrollHeight)")
                    return try await browser.tileCount() == 45
                }
                #expect(pages() == ["1", "2", "2", "3"])
                #expect(try await browser.find(".page-failure") == nil)
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    /// Pixabay's own limit (a 429 with `Retry-After`) is Pixabay's, said so, and the page waits at least as
    /// long as Pixabay asked before it tries again by itself.
    @Test func aServicesOwnLimitIsTheServicesNotThePersons() async throws {
        try await WebApp.run(configure: { $0.pixabay.state.behavior = .rateLimited(retryAfter: 40) }) { app in
            try await withBrowser { browser in
                try await Self.holdTheCountdown(browser)
                try await browser.open(app, "/search?q=volcano&scope=pixabay")
                try await browser.waitFor(".page-failure", timeout: .seconds(20))
                #expect(
                    try await browser.text(of: ".page-failure .banner-text")
                        == "Pixabay’s limit for this minute is used up.")
                #expect(try await browser.text(of: ".page-failure .countdown") == "Trying again in 40 s")
                #expect(!(try await browser.text(of: "body")).contains("your address"))
                #expect(app.standIns.pixabay.state.requests.count { $0["q"] == "volcano" } == 1)
            }
        }
    }

    /// With the tab in view the page tries again by itself once the count reaches zero, once, and then waits
    /// twice as long. (The one test that waits the ten seconds.)
    @Test func theAutomaticTryCountsDownThenAsksOnceAndWaitsLonger() async throws {
        try await WebApp.run(configure: { $0.pixabay.state.behavior = .serverError }) { app in
            try await withBrowser(width: 390, height: 844, mobile: true) { browser in
                try await browser.open(app, "/search?q=volcano&scope=pixabay")
                try await browser.waitFor(".page-failure", timeout: .seconds(20))
                let asked: @Sendable () -> Int = { app.standIns.pixabay.state.requests.count { $0["q"] == "volcano" } }
                let first = try await Self.countdownSeconds(browser)
                #expect((1...10).contains(first ?? 0), "counting down from 10: \(String(describing: first))")
                #expect(asked() == 1)
                try await browser.waitUntil("the automatic try", timeout: .seconds(30)) { asked() == 2 }
                try await browser.waitUntil("the line back, counting again", timeout: .seconds(20)) {
                    try await Self.countdownSeconds(browser).map { $0 > 10 } == true
                }
                #expect(asked() == 2, "one request when the count ran out")
                #expect(try await Self.countdownSeconds(browser).map { (11...20).contains($0) } == true)
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    /// Every service down (their addresses loopback ports that refuse connections): one calm line with one Try
    /// again, and no "No results" under it.
    @Test func everyServiceDownIsOneCalmLine() async throws {
        let ports = try (0..<5).map { _ in try LoopbackSocket() }
        defer { for port in ports { port.close() } }
        let names = ["PIXABAY", "FLICKR", "OPENVERSE", "WIKIMEDIA", "ITUNES"]
        let setting = Dictionary(
            uniqueKeysWithValues: zip(names, ports).map { ("TESSERA_\($0)_URL", "http://127.0.0.1:\($1.port)/") })
        try await WebApp.run(setting: setting) { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await Self.holdTheCountdown(browser)
                    try await browser.open(app, "/search?q=volcano&scope=all")
                    try await browser.waitFor("#banners .all-down", timeout: .seconds(20))
                    #expect(try await browser.findAll("#banners .banner").count == 1, "one line")
                    #expect(
                        try await browser.text(of: "#banners .banner-text")
                            == "Couldn’t reach any service — check this server’s connection.")
                    #expect(try await browser.findAll("#banners button").count == 1, "one Try again")
                    #expect(try await browser.find("#results .empty") == nil, "no “No results” under it")
                    #expect(try await browser.findAll("#results section").isEmpty)
                    #expect(try await browser.text(of: "#summary") == "")
                    try await Self.saveLightAndDark(browser, "all-services-down-\(size.width)x\(size.height)")

                    // Try again runs the search again: once more for each service.
                    #expect(try await Self.searchesSent(browser) == 1)
                    try await browser.waitFor("#banners button").click()
                    try await browser.waitUntil("the line back") {
                        let sent = try await Self.searchesSent(browser)
                        let line = try await browser.find("#banners .all-down")
                        return sent == 2 && line != nil
                    }
                    #expect(try await browser.findAll("#banners .banner").count == 1)
                    #expect(try await browser.consoleErrorMessages() == [])
                }
            }
        }
    }

    /// Two services that cannot be reached are one line naming both; the others' results show as usual.
    @Test func servicesThatFailTheSameWayAreOneLineNamingThem() async throws {
        let ports = try (0..<2).map { _ in try LoopbackSocket() }
        defer { for port in ports { port.close() } }
        try await WebApp.run(setting: [
            "TESSERA_PIXABAY_URL": "http://127.0.0.1:\(ports[0].port)/",
            "TESSERA_FLICKR_URL": "http://127.0.0.1:\(ports[1].port)/",
        ]) { app in
            try await withBrowser(width: 390, height: 844, mobile: true) { browser in
                try await browser.open(app, "/search?q=volcano&scope=all")
                try await browser.waitUntil("every section to settle", timeout: .seconds(20)) {
                    let sections = try await browser.sections()
                    return !sections.isEmpty && sections.allSatisfy { !$0.pending }
                }
                let lines = try await browser.execute(
                    "return [...document.querySelectorAll('#banners .banner')].map(b => b.firstChild.textContent)",
                    as: [String].self)
                #expect(lines == ["Couldn’t reach Pixabay and Flickr."])
                #expect(try await browser.find("#banners .all-down") == nil)
                #expect(try await browser.sections().map(\.id).starts(with: ["openverse", "wikimedia"]))
                #expect(try await browser.consoleErrorMessages() == [])
            }
        }
    }

    // MARK: - Helpers

    /// Makes the page believe its tab is in the background, where the automatic try's count stands still:
    /// what a test then counts is what the page asks by itself otherwise, and what Try again asks.
    static func holdTheCountdown(_ browser: Browser) async throws {
        _ = try await browser.cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            [
                "source": """
                Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => true });
                Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => 'hidden' });
                """
            ])
    }

    /// The seconds the failure's line counts down from now, if it is counting.
    static func countdownSeconds(_ browser: Browser) async throws -> Int? {
        let text = try await browser.text(of: ".page-failure .countdown")
        return text.split(separator: " ").compactMap { Int($0) }.first
    }

    /// How many times Tessera asked Pixabay about "volcano": the stand-in's count, or for a port that refuses
    /// connections, the server's own count of requests that got no answer (`/metrics`).
    static func askedPixabay(_ app: WebApp, _ browser: Browser, _ failure: Failure) async throws -> Int {
        guard failure == .unreachable else {
            return app.standIns.pixabay.state.requests.count { $0["q"] == "volcano" }
        }
        let text =
            try await browser.executeAsync("fetch('/metrics').then(r => r.text()).then(arguments[0])").string ?? ""
        return Int(
            text.split(separator: "\n").filter {
                $0.hasPrefix("tessera_source_http_requests_total{") && $0.contains("source=\"pixabay\"")
            }.compactMap { Double($0.split(separator: " ").last ?? "") }.reduce(0, +))
    }

    /// Searches the page sent to this server (`/api/search…`), from Resource Timing.
    static func searchesSent(_ browser: Browser) async throws -> Int {
        try await browser.execute(
            "return performance.getEntriesByType('resource').filter(e => new URL(e.name).pathname.startsWith('/api/search')).length"
        ).int ?? -1
    }

    /// Screenshots of the page as it is, light and then dark (`.build/ui-artifacts/`).
    static func saveLightAndDark(_ browser: Browser, _ name: String) async throws {
        try await browser.execute("window.scrollTo(0, 0)")
        try await browser.saveScreenshot(named: "\(name)-light")
        _ = try await browser.cdp(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
        try await browser.saveScreenshot(named: "\(name)-dark")
        _ = try await browser.cdp(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "light"]]])
    }
}
