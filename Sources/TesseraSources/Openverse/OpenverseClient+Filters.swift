import TesseraCore

/// Openverse applies licences (`license` families, `license_type`), orientation (`aspect_ratio`), size
/// (`size`) and type (`category`, and `extension=svg` for vectors) itself; it has no colour filter
/// (docs/filters.md).
extension OpenverseClient {
    public func nativeFilters(_ filters: SearchFilters, in section: SectionID) -> Set<SearchFilters.Name> {
        var names: Set<SearchFilters.Name> = [.orientation, .size, .type]
        if let license = filters.license, Self.licenseCodes(license.ids) != nil { names.insert(.license) }
        return names
    }

    /// Openverse's `license` codes for licence ids, `nil` when one of them is not a licence it lists
    /// (then Tessera filters the licences itself).
    static func licenseCodes(_ ids: [LicenseID]) -> [String]? {
        var codes: [String] = []
        for id in ids {
            guard let code = Licenses.openverseCodes.first(where: { $0.family == id.family })?.code else {
                return nil
            }
            if !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    static func filterParameters(_ filters: SearchFilters) -> [(String, String)] {
        var parameters: [(String, String)] = []
        if let license = filters.license, let codes = licenseCodes(license.ids) {
            if !codes.isEmpty { parameters.append(("license", codes.joined(separator: ","))) }
            let types = (license.commercial ? ["commercial"] : []) + (license.modification ? ["modification"] : [])
            if !types.isEmpty { parameters.append(("license_type", types.joined(separator: ","))) }
        }
        switch filters.orientation {
        case .landscape: parameters.append(("aspect_ratio", "wide"))
        case .portrait: parameters.append(("aspect_ratio", "tall"))
        case .square: parameters.append(("aspect_ratio", "square"))
        case nil: break
        }
        if let size = filters.size { parameters.append(("size", size.rawValue)) }
        switch filters.type {
        case .photo: parameters.append(("category", "photograph"))
        case .illustration: parameters.append(("category", "illustration"))
        case .vector: parameters.append(("extension", "svg"))
        case nil: break
        }
        return parameters
    }
}
