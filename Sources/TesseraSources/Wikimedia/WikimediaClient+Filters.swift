import TesseraCore

/// Commons' search applies a size's lower bound (`filew:>N fileh:>N`) and photos (JPEG bitmaps,
/// `filemime:image/jpeg`) and vectors (`filetype:drawing`) as keywords; Tessera checks licences,
/// orientation and the upper bound of a size on the answer; illustrations and colour are unsupported
/// (docs/filters.md).
extension WikimediaClient {
    public func nativeFilters(_ filters: SearchFilters, in section: SectionID) -> Set<SearchFilters.Name> {
        var names: Set<SearchFilters.Name> = []
        if filters.size == .medium || filters.size == .large { names.insert(.size) }
        if filters.type == .photo || filters.type == .vector { names.insert(.type) }
        return names
    }

    /// The keywords before the query: the file types, then the filters' own.
    static func keywords(_ filters: SearchFilters) -> String {
        var words: [String] = []
        switch filters.type {
        case .photo: words += ["filetype:bitmap", "filemime:image/jpeg"]
        case .vector: words.append("filetype:drawing")
        case .illustration, nil: words.append(fileTypes)
        }
        let minimum: Int? =
            switch filters.size {
            case .medium: SearchFilters.mediumShortSide
            case .large: SearchFilters.largeShortSide
            case .small, nil: nil
            }
        if let minimum { words += ["filew:>\(minimum - 1)", "fileh:>\(minimum - 1)"] }
        return words.joined(separator: " ")
    }
}
