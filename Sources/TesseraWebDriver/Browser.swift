import Foundation
import Synchronization

/// One headless Chromium session on a chromedriver: navigation, finding elements, waits and scripts.
/// Input is in `Browser+Input.swift`, screenshots and the console in `Browser+Artifacts.swift`.
public final class Browser: Sendable {
    public static let chromium = "/usr/bin/chromium"

    public let session: Session
    /// Console entries read so far: chromedriver hands each one out only once.
    let consoleLog = Mutex<[(level: String, message: String)]>([])

    private init(session: Session) { self.session = session }

    /// Starts Chromium with a `width`×`height` window. With `mobile`, the page sees a phone: that viewport at device
    /// scale 2, a coarse pointer and touch events. Pages still need `<meta name="viewport"
    /// content="width=device-width">` to lay out at `width`; without it mobile Chromium lays out at 980 px.
    public static func open(
        driver: Chromedriver, width: Int = 1280, height: Int = 800, mobile: Bool = false
    ) async throws -> Browser {
        guard FileManager.default.isExecutableFile(atPath: chromium) else {
            throw WebDriverError.notInstalled(package: "chromium", path: chromium)
        }
        let arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
            "--window-size=\(width),\(height)",
        ]
        let answer = try await driver.post(
            "/session",
            [
                "capabilities": [
                    "alwaysMatch": [
                        "browserName": "chrome",
                        "pageLoadStrategy": "normal",
                        "goog:chromeOptions": [
                            "binary": .string(chromium), "args": .array(arguments.map(JSONValue.string)),
                        ],
                        "goog:loggingPrefs": ["browser": "ALL"],
                    ]
                ]
            ])
        guard let id = answer["sessionId"]?.string else {
            throw WebDriverError.unexpectedResponse(request: "POST /session", status: 200, body: "\(answer)")
        }
        let browser = Browser(session: Session(driver: driver, id: id))
        guard mobile else { return browser }
        // Before the first page: a document decides whether it has `ontouchstart` when it is created.
        do {
            try await browser.cdp(
                "Emulation.setDeviceMetricsOverride",
                ["width": JSONValue(width), "height": JSONValue(height), "deviceScaleFactor": 2, "mobile": true])
            try await browser.cdp("Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5])
        } catch {
            try? await browser.quit()
            throw error
        }
        return browser
    }

    /// Ends the session and closes Chromium; the driver stays up for other sessions.
    public func quit() async throws { _ = try await session.delete("") }

    /// Runs a Chrome DevTools Protocol command, for what WebDriver cannot do (device emulation, network conditions).
    @discardableResult
    public func cdp(_ command: String, _ params: [String: JSONValue] = [:]) async throws -> JSONValue {
        try await session.post("goog/cdp/execute", ["cmd": .string(command), "params": .object(params)])
    }

    // MARK: - Navigation

    /// Loads `url` and returns once the page has fired `load`.
    public func go(to url: String) async throws { _ = try await session.post("url", ["url": .string(url)]) }
    public func back() async throws { _ = try await session.post("back") }
    public func forward() async throws { _ = try await session.post("forward") }
    public func refresh() async throws { _ = try await session.post("refresh") }
    public var currentURL: String { get async throws { try await session.get("url").string ?? "" } }
    public var title: String { get async throws { try await session.get("title").string ?? "" } }

    // MARK: - Finding

    /// The first element matching the CSS selector, or nil when there is none now.
    public func find(_ css: String) async throws -> Element? { try await find(css, in: "") }
    public func findAll(_ css: String) async throws -> [Element] { try await findAll(css, in: "") }

    /// How long a wait lasts unless the test says: far past what a page needs, so that only something that
    /// never happens fails (on a busy two-core machine images have taken over ten seconds to appear).
    public static let patience: Duration = .seconds(30)

    /// The first element matching the CSS selector, polled for until it appears.
    public func waitFor(_ css: String, timeout: Duration = Browser.patience) async throws -> Element {
        try await poll("an element matching `\(css)`", timeout: timeout) { try await find(css) }
    }

    /// Polls `condition` until it holds; the timeout error names `what`.
    public func waitUntil(
        _ what: String, timeout: Duration = Browser.patience, _ condition: @Sendable () async throws -> Bool
    ) async throws {
        try await poll(what, timeout: timeout) { try await condition() ? () : nil }
    }

    /// The element that has the keyboard focus (the body when nothing has).
    public func activeElement() async throws -> Element? { Element(try await session.get("element/active"), in: self) }

    /// Finding below `scope`: "" for the document, "element/{id}/" for inside an element.
    public func find(_ css: String, in scope: String) async throws -> Element? {
        do {
            return Element(
                try await session.post("\(scope)element", ["using": "css selector", "value": .string(css)]), in: self)
        } catch let error as WebDriverError where error.code == "no such element" {
            return nil
        }
    }

    public func findAll(_ css: String, in scope: String) async throws -> [Element] {
        let answer = try await session.post("\(scope)elements", ["using": "css selector", "value": .string(css)])
        return (answer.array ?? []).compactMap { Element($0, in: self) }
    }

    // MARK: - Scripts

    /// Runs `script` as the body of a function in the page: `arguments[i]` are `args` (pass elements as
    /// `element.json`), and what it returns comes back as JSON, with elements as W3C element references.
    @discardableResult
    public func execute(_ script: String, _ args: [JSONValue] = []) async throws -> JSONValue {
        try await session.post("execute/sync", ["script": .string(script), "args": .array(args)])
    }

    /// Like `execute`, for promises and timers: the script ends by calling its last argument with the result.
    @discardableResult
    public func executeAsync(_ script: String, _ args: [JSONValue] = []) async throws -> JSONValue {
        try await session.post("execute/async", ["script": .string(script), "args": .array(args)])
    }

    /// `execute`, with the result decoded as `T`; `Element`s decode too, alone or inside arrays and structs.
    public func execute<T: Decodable>(_ script: String, _ args: [JSONValue] = [], as type: T.Type) async throws -> T {
        let decoder = JSONDecoder()
        decoder.userInfo[.browser] = self
        return try decoder.decode(T.self, from: JSONEncoder().encode(try await execute(script, args)))
    }
}

/// The W3C commands of one session: `path` is relative to `/session/{id}/`.
public struct Session: Sendable {
    let driver: Chromedriver
    let id: String

    public func get(_ path: String) async throws -> JSONValue { try await driver.get(url(path)) }
    public func post(_ path: String, _ body: JSONValue = [:]) async throws -> JSONValue {
        try await driver.post(url(path), body)
    }
    public func delete(_ path: String) async throws -> JSONValue { try await driver.delete(url(path)) }

    private func url(_ path: String) -> String { path.isEmpty ? "/session/\(id)" : "/session/\(id)/\(path)" }
}
