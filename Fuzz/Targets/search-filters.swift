// `SearchFilters.parse` and `SearchRequest(query:scope:page:filters:)`: a search's query values (TesseraCore).
// Input: one `name=value` a line, as a query string's pairs decoded (`q`, `scope`, `page`, `license`,
// `orientation`, `size`, `color`, `type`, `id`); a name not given is absent, a later line replaces an earlier.
import TesseraCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSearchFilters(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var values: [String: String] = [:]
    for line in lines(bytes(data, size)) {
        let pair = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        values[String(pair[0])] = pair.count > 1 ? String(pair[1]) : ""
    }
    if let id = values["id"], let checked = try? InputError.checkedItemID(id) {
        expect(checked == id && (1...300).contains(id.unicodeScalars.count), "item id \(String(reflecting: id))")
    }
    guard
        let filters = try? SearchFilters.parse(
            license: values["license"], orientation: values["orientation"], size: values["size"],
            color: values["color"], type: values["type"])
    else { return 0 }
    checkFilters(filters)
    guard
        let request = try? SearchRequest(
            query: values["q"], scope: values["scope"], page: values["page"], filters: filters)
    else { return 0 }
    expect(!request.query.isEmpty, "an empty query")
    expect(request.query.unicodeScalars.count <= SearchRequest.maxQueryLength, "a query of \(request.query.count)")
    expect((1...SearchRequest.maxPage).contains(request.page), "page \(request.page)")
    // What the request holds is valid input itself.
    let again = try? SearchRequest(
        query: request.query, scope: request.scope.rawValue, page: String(request.page), filters: filters)
    expect(again == request, "\(request) does not read back")
    return 0
}

/// Filters read are what their own query items say (the CLI sends those, and the cache keys by them).
func checkFilters(_ filters: SearchFilters) {
    var items: [String: String] = [:]
    for (name, value) in filters.queryItems { items[name] = value }
    let again = try? SearchFilters.parse(
        license: items["license"], orientation: items["orientation"], size: items["size"], color: items["color"],
        type: items["type"])
    expect(again == filters, "\(filters) reads back from \(items) as \(String(describing: again))")
    if let license = filters.license {
        expect(license.ids.count <= SearchFilters.maxLicenseEntries, "\(license.ids.count) licence ids")
        expect(Set(license.ids).count == license.ids.count, "a licence id twice: \(license.ids)")
    }
}
