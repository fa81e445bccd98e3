import TesseraCore

/// Pixabay applies type (`image_type`), colour (`colors`), landscape and portrait (`orientation`) and the
/// lower bound of a size (`min_width`, `min_height`) itself; Tessera checks the rest (docs/filters.md).
extension PixabayClient {
    public func nativeFilters(_ filters: SearchFilters, in section: SectionID) -> Set<SearchFilters.Name> {
        var names: Set<SearchFilters.Name> = [.type, .color]
        if filters.orientation != .square { names.insert(.orientation) }
        if filters.size != .small { names.insert(.size) }
        return names
    }

    /// The query parameters for `filters` other than `image_type` (always sent), in a fixed order.
    static func filterParameters(_ filters: SearchFilters) -> [(String, String)] {
        var parameters: [(String, String)] = []
        switch filters.orientation {
        case .landscape: parameters.append(("orientation", "horizontal"))
        case .portrait: parameters.append(("orientation", "vertical"))
        case .square, nil: break
        }
        if let color = filters.color { parameters.append(("colors", color.rawValue)) }
        let minimum: Int? =
            switch filters.size {
            case .medium: SearchFilters.mediumShortSide
            case .large: SearchFilters.largeShortSide
            case .small, nil: nil
            }
        if let minimum { parameters += [("min_width", String(minimum)), ("min_height", String(minimum))] }
        return parameters
    }
}
