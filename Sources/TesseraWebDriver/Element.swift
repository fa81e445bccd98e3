import Foundation

/// A reference to one DOM element of a browser's current page. It goes stale when the element leaves the page:
/// commands on it then throw `WebDriverError` with code "stale element reference".
public struct Element: Sendable {
    /// The key W3C uses to mark an element reference in JSON.
    public static let referenceKey = CodingKeys.reference.rawValue

    public let id: String
    public let browser: Browser

    /// The element a W3C reference (`{"element-6066-…": id}`) points at; nil for any other value.
    public init?(_ reference: JSONValue, in browser: Browser) {
        guard let id = reference[Self.referenceKey]?.string else { return nil }
        self.id = id
        self.browser = browser
    }

    /// The element as a script argument for `Browser.execute`.
    public var json: JSONValue { [Self.referenceKey: .string(id)] }

    public struct Rect: Sendable, Equatable, Decodable {
        public let x: Double
        public let y: Double
        public let width: Double
        public let height: Double
    }

    // MARK: - Acting

    /// Scrolls the element into view and clicks its centre, as a user would; throws when something covers it.
    public func click() async throws { _ = try await browser.session.post("element/\(id)/click") }

    /// Focuses the element and types `text`; `Key` holds the code points of special keys such as Enter.
    public func sendKeys(_ text: String) async throws {
        _ = try await browser.session.post("element/\(id)/value", ["text": .string(text)])
    }

    public func clear() async throws { _ = try await browser.session.post("element/\(id)/clear") }

    // MARK: - Reading

    /// The rendered text, as the user sees it (hidden parts left out).
    public var text: String { get async throws { try await browser.session.get("element/\(id)/text").string ?? "" } }
    public var tagName: String { get async throws { try await browser.session.get("element/\(id)/name").string ?? "" } }
    public var isDisplayed: Bool {
        get async throws { try await browser.session.get("element/\(id)/displayed").bool ?? false }
    }
    public var rect: Rect {
        get async throws {
            let value = try await browser.session.get("element/\(id)/rect")
            return try JSONDecoder().decode(Rect.self, from: JSONEncoder().encode(value))
        }
    }

    /// The attribute as written in the HTML; nil when absent.
    public func attribute(_ name: String) async throws -> String? {
        try await browser.session.get("element/\(id)/attribute/\(name)").string
    }

    /// The live DOM property, such as `value` or `checked`.
    public func property(_ name: String) async throws -> JSONValue {
        try await browser.session.get("element/\(id)/property/\(name)")
    }

    /// The computed style value, such as "rgb(0, 0, 0)" for `color`.
    public func cssValue(_ name: String) async throws -> String {
        try await browser.session.get("element/\(id)/css/\(name)").string ?? ""
    }

    // MARK: - Finding inside

    public func find(_ css: String) async throws -> Element? { try await browser.find(css, in: "element/\(id)/") }
    public func findAll(_ css: String) async throws -> [Element] {
        try await browser.findAll(css, in: "element/\(id)/")
    }
}

extension Element: Decodable {
    private enum CodingKeys: String, CodingKey { case reference = "element-6066-11e4-a52e-4f735466cecf" }

    /// Decodes a reference from a script result; works only through `Browser.execute(_:_:as:)`, which says which
    /// browser the element belongs to.
    public init(from decoder: any Decoder) throws {
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
