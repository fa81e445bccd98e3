import Foundation

/// A reference to one DOM element of a browser's current page. It goes stale when the element leaves the page:
/// commands on it then throw `WebDriverError` with code "stale element reference".
struct Element: Sendable {
    /// The key W3C uses to mark an element reference in JSON.
    static let referenceKey = CodingKeys.reference.rawValue

    let id: String
    let browser: Browser

    /// The element a W3C reference (`{"element-6066-…": id}`) points at; nil for any other value.
    init?(_ reference: JSONValue, in browser: Browser) {
        guard let id = reference[Self.referenceKey]?.string else { return nil }
        self.id = id
        self.browser = browser
    }

    /// The element as a script argument for `Browser.execute`.
    var json: JSONValue { [Self.referenceKey: .string(id)] }

    struct Rect: Sendable, Equatable, Decodable {
        let x: Double
        let y: Double
        let width: Double
        let height: Double
    }

    // MARK: - Acting

    /// Scrolls the element into view and clicks its centre, as a user would; throws when something covers it.
    func click() async throws { _ = try await browser.session.post("element/\(id)/click") }

    /// Focuses the element and types `text`; `Key` holds the code points of special keys such as Enter.
    func sendKeys(_ text: String) async throws {
        _ = try await browser.session.post("element/\(id)/value", ["text": .string(text)])
    }

    func clear() async throws { _ = try await browser.session.post("element/\(id)/clear") }

    // MARK: - Reading

    /// The rendered text, as the user sees it (hidden parts left out).
    var text: String { get async throws { try await browser.session.get("element/\(id)/text").string ?? "" } }
    var tagName: String { get async throws { try await browser.session.get("element/\(id)/name").string ?? "" } }
    var isDisplayed: Bool {
        get async throws { try await browser.session.get("element/\(id)/displayed").bool ?? false }
    }
    var rect: Rect {
        get async throws {
            let value = try await browser.session.get("element/\(id)/rect")
            return try JSONDecoder().decode(Rect.self, from: JSONEncoder().encode(value))
        }
    }

    /// The attribute as written in the HTML; nil when absent.
    func attribute(_ name: String) async throws -> String? {
        try await browser.session.get("element/\(id)/attribute/\(name)").string
    }

    /// The live DOM property, such as `value` or `checked`.
    func property(_ name: String) async throws -> JSONValue {
        try await browser.session.get("element/\(id)/property/\(name)")
    }

    /// The computed style value, such as "rgb(0, 0, 0)" for `color`.
    func cssValue(_ name: String) async throws -> String {
        try await browser.session.get("element/\(id)/css/\(name)").string ?? ""
    }

    // MARK: - Finding inside

    func find(_ css: String) async throws -> Element? { try await browser.find(css, in: "element/\(id)/") }
    func findAll(_ css: String) async throws -> [Element] { try await browser.findAll(css, in: "element/\(id)/") }
}

extension Element: Decodable {
    private enum CodingKeys: String, CodingKey { case reference = "element-6066-11e4-a52e-4f735466cecf" }

    /// Decodes a reference from a script result; works only through `Browser.execute(_:_:as:)`, which says which
    /// browser the element belongs to.
    init(from decoder: any Decoder) throws {
        guard let browser = decoder.userInfo[.browser] as? Browser else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "Elements decode only in Browser.execute"))
        }
        self.id = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .reference)
        self.browser = browser
    }
}

extension CodingUserInfoKey {
    static let browser = CodingUserInfoKey(rawValue: "tessera.webdriver.browser")!
}
