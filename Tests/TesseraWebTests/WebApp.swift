import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TesseraServer
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// Tessera on a real port, pointed at stand-in providers, for a browser to visit.
struct WebApp: Sendable {
    let base: String
    let standIns: StandInSet
    /// The stand-ins' server: image URLs on it (`origin` + `/pixabay/cdn/…`) are trusted by the fetcher, and
    /// `imageDelay` slows its images down.
    let standInServer: StandInServer

    func url(_ path: String) -> String { base + path }

    /// Runs the app for `body`. `configure` sets up the stand-ins first (delays, failures, corpora);
    /// `without` drops variables from the environment (a key, to see its source disabled); `setting` adds or
    /// replaces some (a service's address, to see it unreachable).
    ///
    /// `users` are added (name, password) as `tessera user add` would, for `TESSERA_AUTH=accounts` in `setting`.
    /// `now` is the server's wall clock (a `TestClock` moves it, to see a link expire).
    static func run(
        configure: (StandInSet) -> Void = { _ in }, without: Set<String> = [], setting: [String: String] = [:],
        users: [(name: String, password: String)] = [], now: @escaping @Sendable () -> Date = Date.init,
        _ body: @Sendable (WebApp) async throws -> Void
    ) async throws {
        let standIns = StandInSet()
        configure(standIns)
        let server = try await StandInServer.start(standIns.list)
        // A picture of its own at every address, as real services have: with one picture everywhere, the server
        // would group every result as one (docs/duplicates.md).
        server.images = StandInImage.distinct(for:)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-web-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var environment = server.environment.filter { !without.contains($0.key) }
        environment.merge(setting) { _, new in new }
        environment["TESSERA_DATA"] = data.path
        environment["TESSERA_PORT"] = "0"
        environment["TESSERA_SAMPLES"] = "none"
        var logger = Logger(label: "tessera-web-test")
        logger.logLevel = .critical
        let live = try await AppEnvironment.live(
            try AppConfiguration(environment: environment), logger: logger, now: now)
        for user in users { _ = try await live.accounts.add(name: user.name, password: user.password, admin: false) }
        let app = buildApplication(live)
        do {
            try await app.test(.live) { client in
                let port = try #require(client.port)
                try await body(WebApp(base: "http://127.0.0.1:\(port)", standIns: standIns, standInServer: server))
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}

/// What the tests ask the page about, in one place.
extension Browser {
    /// Tiles with results (not skeletons) under `#results`.
    func tileCount(visibleOnly: Bool = false) async throws -> Int {
        let selector = visibleOnly ? "#results .tile:not(.skeleton):not([hidden])" : "#results .tile:not(.skeleton)"
        return try await execute("return document.querySelectorAll(arguments[0]).length", [.string(selector)]).int ?? 0
    }

    /// Tile images that have loaded and decoded to real pixels.
    func loadedImageCount() async throws -> Int {
        try await execute(
            """
            return [...document.querySelectorAll('#results .tile img')]
              .filter(img => img.complete && img.naturalWidth > 0).length
            """
        ).int ?? 0
    }

    /// The `alt` of every result tile's image, in page order.
    func tileTitles() async throws -> [String] {
        try await execute(
            "return [...document.querySelectorAll('#results .tile img')].map(img => img.alt)", as: [String].self)
    }

    func waitForTiles(atLeast count: Int, loaded: Bool = true) async throws {
        try await waitUntil("\(count) result tiles\(loaded ? " with loaded images" : "")", timeout: .seconds(15)) {
            try await (loaded ? self.loadedImageCount() : self.tileCount()) >= count
        }
    }

    /// The ids of the sections shown for `all`, in page order, and whether each is still waiting.
    func sections() async throws -> [(id: String, pending: Bool)] {
        let values =
            try await execute(
                """
                return [...document.querySelectorAll('#results section[data-section]')]
                  .map(s => [s.dataset.section, s.classList.contains('pending')])
                """
            ).array ?? []
        return values.compactMap { pair in
            guard let id = pair.array?.first?.string, let pending = pair.array?.last?.bool else { return nil }
            return (id, pending)
        }
    }

    func isHidden(_ css: String) async throws -> Bool {
        try await execute("const e = document.querySelector(arguments[0]); return !e || e.hidden", [.string(css)])
            .bool ?? true
    }

    func text(of css: String) async throws -> String {
        try await execute("return document.querySelector(arguments[0])?.textContent ?? ''", [.string(css)]).string
            ?? ""
    }

    /// Console errors so far, as text, for `#expect(... .isEmpty)`.
    func consoleErrorMessages() async throws -> [String] {
        try await consoleErrors().map(\.message)
    }

    /// Opens the app at `path` and waits until its script has started.
    func open(_ app: WebApp, _ path: String) async throws {
        try await go(to: app.url(path))
        try await waitUntil("the app to start") {
            try await self.execute("return document.documentElement.dataset.ready === 'true'").bool == true
        }
    }
}
