import ArgumentParser
import Foundation
import TesseraCore
import TesseraTestSupport
import TesseraWebDriver

/// From pressing Return to the first 20 result thumbnails painted, in headless Chromium, with the server's
/// thumbnail prefetch on and off, beside a static page that paints 20 stand-in images (docs/benchmarks.md, "paint").
struct PaintBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paint",
        abstract: "Return to 20 thumbnails painted in headless Chromium, prefetch on and off, against stand-ins.")

    @Option(help: "Searches to time per mode (after 2 warm-up searches), each for a query of its own.")
    var searches = 20

    @Option(help: "How long each stand-in takes to answer a search, in milliseconds.")
    var delay = 100

    /// The issue's stand-ins "answer in 100 ms": the searches. Images come from the services' CDNs, which answer
    /// far sooner; a slow image host is this option.
    @Option(help: "How long the stand-ins' image host takes to serve an image, in milliseconds.")
    var imageDelay = 0

    @Option(help: "Thumbnails that must be painted.")
    var thumbnails = 20

    @Option(help: "The tessera executable to run.")
    var binary = ".build/release/tessera"

    /// Runs of one build differ by up to 100 ms; two sides of one run share the machine's state.
    @Option(
        help: """
            Another tessera executable, with its own web app beside it, to compare with --binary in paired runs: \
            both serve at once and two browsers alternate searches between them.
            """)
    var versus: String?

    @Option(help: "With --versus: both servers' TESSERA_IMAGE_PREFETCH.")
    var prefetch = true

    func run() async throws {
        if let versus { return try await paired(versus) }
        let results = try await withStandInsAndDriver { server, driver in
            var results: [(String, [PaintSample])] = []
            let browser = try await Browser.open(driver: driver, width: 1280, height: 800)
            let reference = PaintProbe.referencePage(imageOrigin: server.origin, count: thumbnails)
            // Written into a page of the stand-ins' origin: Chromium does not load loopback images into a data: page.
            try await browser.go(to: server.origin + "/health")
            try await browser.execute(
                "document.open(); document.write(arguments[0]); document.close()", [.string(reference)])
            results.append(
                ("20 stand-in images in a static page (reference)", try await measure(browser, "ref", server)))
            for prefetch in [true, false] {
                let rows = try await withServer(standIns: server, prefetch: prefetch) { base in
                    try await browser.go(to: base + "/")
                    return try await measure(browser, prefetch ? "on" : "off", server)
                }
                results.append(("Tessera, TESSERA_IMAGE_PREFETCH=\(prefetch)", rows))
            }
            try await browser.quit()
            return results
        }
        report(results)
    }

    /// Runs `body` with the stand-ins, answering searches after `--delay` with a picture of their own at every
    /// image address (no search reuses a thumbnail made for another), and a chromedriver; stops both after.
    func withStandInsAndDriver<T>(_ body: (StandInServer, Chromedriver) async throws -> T) async throws -> T {
        let standIns = StandInSet()
        for provider in standIns.list { provider.state.delay = .milliseconds(delay) }
        let server = try await StandInServer.start(standIns.list)
        server.images = StandInImage.distinct(for:)
        server.imageDelay = .milliseconds(imageDelay)
        let result: Result<T, any Error>
        do {
            let driver = try await Chromedriver.start()
            do {
                result = .success(try await body(server, driver))
            } catch {
                result = .failure(error)
            }
            await driver.stop()
        } catch {
            result = .failure(error)
        }
        await server.stop()
        return try result.get()
    }

    /// Runs `tessera serve` (`binary`, else `--binary`) on a fresh data folder for `body`, with only the
    /// stand-ins as sources.
    func withServer<T>(
        standIns: StandInServer, prefetch: Bool, binary: String? = nil, _ body: (String) async throws -> T
    ) async throws -> T {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-paint-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var environment = standIns.environment
        environment["TESSERA_DATA"] = data.path
        environment["TESSERA_SAMPLES"] = "none"
        environment["TESSERA_LOG_LEVEL"] = "error"
        environment["TESSERA_IMAGE_PREFETCH"] = prefetch ? "true" : "false"
        environment.merge(BenchSettings.noFairUseLimits) { _, off in off }
        let child = try await ServerChild.start(binary: binary ?? self.binary, environment: environment)
        do {
            let result = try await body("http://127.0.0.1:\(child.port)")
            await stop(child)
            return result
        } catch {
            await stop(child)
            throw error
        }
    }

    /// SIGTERM, then SIGKILL after 5 s: a child can inherit a signal mask that blocks SIGTERM (see Chromedriver).
    private func stop(_ child: ServerChild) async {
        child.process.terminate()
        for _ in 0..<100 where child.process.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
        if child.process.isRunning { kill(child.process.processIdentifier, SIGKILL) }
        child.stop()
    }

    /// Types 2 + `searches` distinct queries into `#q`, each followed by Return, and reads the probe after each.
    private func measure(_ browser: Browser, _ tag: String, _ server: StandInServer) async throws -> [PaintSample] {
        try await browser.execute(PaintProbe.install)
        var samples: [PaintSample] = []
        for index in 0..<(searches + 2) {
            let sample = try await search(browser, "\(tag) \(index)")
            if index >= 2 { samples.append(sample) }
            try await settle(server)
        }
        return samples
    }

    /// One search for a new query (`label` and a random word) typed into `#q` with Return, as the probe saw it.
    func search(_ browser: Browser, _ label: String) async throws -> PaintSample {
        let field = try await browser.waitFor("#q")
        try await field.clear()
        // A new query each time: new results, new image addresses, nothing cached anywhere.
        try await field.sendKeys("paint \(UUID().uuidString.prefix(8)) \(label)")
        // Return as a keystroke of its own, as a person presses it after typing: sent with the query, it waited
        // about 10 ms in the page's queue behind the characters' input events (docs/benchmarks.md, "paint").
        try await Task.sleep(for: .milliseconds(300))
        try await field.sendKeys(Key.enter)
        // In the page, 20 s at a time (WebDriver's limit for a script is 30 s), up to a minute.
        let wait = {
            try await browser.executeAsync(PaintProbe.wait, [JSONValue(thumbnails), JSONValue(20_000)]).object
                .map(PaintSample.init)
        }
        return try await poll("the window's thumbnails painted", timeout: .seconds(60), every: .zero, wait)
    }

    /// Waits until the stand-in image host has had no request for half a second: the previous search's
    /// prefetch and lazy images are done, so they take no CPU from the next search.
    func settle(_ server: StandInServer) async throws {
        var last = server.totalImageRequests
        var quietSince = ContinuousClock.now
        while ContinuousClock.now - quietSince < .milliseconds(500) {
            try await Task.sleep(for: .milliseconds(50))
            let now = server.totalImageRequests
            if now != last { (last, quietSince) = (now, ContinuousClock.now) }
        }
    }

    /// The table; the first row is the reference unless `reference` is false (paired runs).
    func report(_ results: [(String, [PaintSample])], reference: Bool = true) {
        say("")
        say(
            "Return → \(thumbnails) thumbnails painted, headless Chromium 1280×800, \(searches) searches per row,"
                + " stand-ins answer searches in \(delay) ms, images in \(imageDelay) ms")
        let table = TextTable([
            .left(46), .right(7), .right(7), .right(7), .right(7), .right(7), .right(8), .right(7), .right(5),
        ])
        let header = table.row([
            "what", "p50 ms", "p95 ms", "win p50", "win p95", "Elt p50", "1st tile", "loaded", "TTFB",
        ])
        say(header)
        say(String(repeating: "-", count: header.count))
        for (name, samples) in results {
            let column = { (value: (PaintSample) -> Double) in samples.map(value).filter { $0 >= 0 } }
            say(
                table.row([
                    name, format(median(column(\.painted))), format(quantile(column(\.painted), 0.95)),
                    format(median(column(\.window))), format(quantile(column(\.window), 0.95)),
                    format(median(column(\.element))), format(median(column(\.firstTile))),
                    format(median(column(\.lastLoaded))), format(median(column(\.ttfb))),
                ]))
        }
        let shown = results.last.map { median($0.1.map(\.shown)) } ?? -1
        say(
            "p50/p95: the \(thumbnails)th thumbnail painted (\(results.map { $0.1.filter { $0.painted < 0 }.count }.reduce(0, +))"
                + " searches never painted \(thumbnails)); win: every thumbnail in the window painted (\(format(shown)));"
                + " Elt: that from Element Timing; 1st tile: first result tile drawn; loaded: the window's last image"
                + " load event; TTFB: its images' time to first byte (medians)")
        for (name, samples) in results.dropFirst(reference ? 1 : 0) {
            let p50 = median(samples.map(\.painted).filter { $0 >= 0 })
            say("goal (\(name)): p50 < 300 ms → \(p50 < 300 ? "met" : "NOT met") (\(format(p50)) ms)")
        }
    }
}

/// One search as the probe saw it, in milliseconds from the keydown (-1: not known).
struct PaintSample: Sendable {
    var painted: Double
    var window: Double
    var shown: Double
    var element: Double
    var firstTile: Double
    var lastLoaded: Double
    var ttfb: Double

    init(_ object: [String: JSONValue]) {
        painted = object["painted"]?.double ?? -1
        window = object["window"]?.double ?? -1
        shown = object["shown"]?.double ?? -1
        element = object["element"]?.double ?? -1
        firstTile = object["firstTile"]?.double ?? -1
        lastLoaded = object["lastLoaded"]?.double ?? -1
        ttfb = object["ttfb"]?.double ?? -1
    }
}

func median(_ values: [Double]) -> Double { quantile(values, 0.5) }

/// The nearest-rank quantile, as `percentile` for durations.
private func quantile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return -1 }
    return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))]
}

func format(_ value: Double) -> String { value < 0 ? "–" : String(format: "%.0f", value) }
