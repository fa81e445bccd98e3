/// A validated search: every field already checked at the edge, so nothing past here re-validates.
public struct SearchRequest: Sendable, Hashable {
    public static let maxQueryLength = 100
    public static let pageSize = 20
    /// 200 pages of 20 is Flickr's 4,000-result ceiling, the deepest any source goes.
    public static let maxPage = 200

    public let query: String
    public let scope: Scope
    public let page: Int
    /// What the results are narrowed to (docs/filters.md); validated by `SearchFilters`' own initializer.
    public let filters: SearchFilters

    /// Validates raw input as it arrives from a URL or the command line.
    public init(
        query rawQuery: String?, scope rawScope: String?, page rawPage: String?, filters: SearchFilters = .none
    ) throws(InputError) {
        let query = (rawQuery ?? "").trimmingWhitespace
        guard !query.isEmpty else { throw .emptyQuery }
        // Counted in Unicode code points, as JSON Schema's maxLength (docs/openapi.yaml) counts them.
        let length = query.unicodeScalars.count
        guard length <= Self.maxQueryLength else { throw .queryTooLong(length) }
        // Absent means the default; present but empty (`scope=`) is no value the API lists, so it is refused
        // like any other unknown one (docs/openapi.yaml, "API contract").
        let scope: Scope
        if let rawScope {
            guard let parsed = Scope(rawValue: rawScope) else { throw .unknownScope(rawScope) }
            scope = parsed
        } else {
            scope = .all
        }
        var page = 1
        if let rawPage {
            // ASCII digits as `Int` reads them, without its "+": what the document's integer allows.
            guard !rawPage.hasPrefix("+"), let parsed = Int(rawPage), (1...Self.maxPage).contains(parsed) else {
                throw .invalidPage(rawPage)
            }
            page = parsed
        }
        self.init(validatedQuery: query, scope: scope, page: page, filters: filters)
    }

    private init(validatedQuery: String, scope: Scope, page: Int, filters: SearchFilters) {
        self.query = validatedQuery
        self.scope = scope
        self.page = page
        self.filters = filters
    }
}

/// Input a user or client got wrong. The message says what is accepted.
public enum InputError: Error, Sendable, Hashable, CustomStringConvertible {
    case emptyQuery
    case queryTooLong(Int)
    case unknownScope(String)
    case invalidPage(String)
    case unknownSource(String)
    case invalidItemID(String)
    /// More item ids (or none) than one question about items takes.
    case itemIDCount(Int)
    /// A yes/no query parameter (`deleted`, `permanent`) that is neither `true` nor `false`.
    case invalidFlag(name: String, value: String)
    /// A query parameter naming one of a few choices (`format`) with another value.
    case invalidChoice(name: String, value: String, accepted: [String])
    /// A filter (`orientation`, `size`, `color`, `type`) with a value it does not take.
    case invalidFilter(name: String, value: String, accepted: [String])
    /// A `license` filter that is not a comma list of `commercial`, `modification` and licence ids.
    case invalidLicenseFilter(String)

    /// The most item ids one request may ask about.
    public static let maxItemIDs = 100

    /// An item id as the API takes one (a native id, or a whole `source:id`): 1 to 300 code points, as the
    /// document's `minLength`/`maxLength` count them.
    public static func checkedItemID(_ id: String) throws(InputError) -> String {
        guard !id.isEmpty, id.unicodeScalars.count <= 300 else { throw .invalidItemID(id) }
        return id
    }

    public var code: String {
        switch self {
        case .emptyQuery, .queryTooLong: "invalid_query"
        case .unknownScope: "invalid_scope"
        case .invalidPage: "invalid_page"
        case .unknownSource: "unknown_source"
        case .invalidItemID, .itemIDCount: "invalid_item_id"
        case .invalidFlag, .invalidChoice: "invalid_parameter"
        case .invalidFilter, .invalidLicenseFilter: "invalid_filter"
        }
    }

    public var message: String {
        switch self {
        case .emptyQuery:
            "Enter something to search for (1–\(SearchRequest.maxQueryLength) characters)."
        case .queryTooLong(let count):
            "The search is \(count) characters long; use at most \(SearchRequest.maxQueryLength)."
        case .unknownScope(let scope):
            "Unknown scope \"\(scope.prefix(40))\"; use one of: \(Scope.allRawValues.joined(separator: ", "))."
        case .invalidPage(let page):
            "Page \"\(page.prefix(20))\" is not valid; use a whole number from 1 to \(SearchRequest.maxPage)."
        case .unknownSource(let source):
            "Unknown source \"\(source.prefix(40))\"; use one of: "
                + SourceID.searchable.map(\.rawValue).joined(separator: ", ") + "."
        case .invalidItemID(let id):
            "\"\(id.prefix(60))\" is not an item id this source uses."
        case .itemIDCount(let count):
            "Ask about 1 to \(Self.maxItemIDs) item ids at once (id=…&id=…); this asks about \(count)."
        case .invalidFlag(let name, let value):
            "\(name) is \"\(value.prefix(20))\"; use true or false (or leave it out for false)."
        case .invalidChoice(let name, let value, let accepted):
            "\(name) is \"\(value.prefix(20))\"; use one of: \(accepted.joined(separator: ", ")) (or leave it out)."
        case .invalidFilter(let name, let value, let accepted):
            "\(name) is \"\(value.prefix(20))\"; use one of: \(accepted.joined(separator: ", "))."
        case .invalidLicenseFilter(let value):
            "license is \"\(value.prefix(40))\"; use reusable, commercial, modification or licence ids such as cc0, pdm, "
                + "cc-by, cc-by-sa-4.0, pixabay (comma-separated, at most \(SearchFilters.maxLicenseEntries))."
        }
    }

    public var description: String { message }
}
