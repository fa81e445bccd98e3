import TesseraCore

/// A search's filters (`SearchFilters`) as the photo index applies them in SQL, on either engine, with the
/// rules of docs/filters.md: the same answers as `SearchFilters.check` gives on the photos' items.
///
/// Orientation and size come from the stored pixel size (a photo without one matches neither); colour from
/// the palette computed at index time (`colors`, a bit per colour); the licence from the facts stored beside
/// the photo when it was indexed. Every library photo is a photo: `illustration` and `vector` match nothing.
public struct LibraryFilter: Sendable, Hashable {
    /// `type` asks for something the library does not hold.
    public var matchesNothing = false
    public var orientation: SearchFilters.Orientation?
    /// The shorter side's bounds, `minimumShortSide ≤ short < shortSideBelow`.
    public var minimumShortSide: Int?
    public var shortSideBelow: Int?
    /// The `colors` bit that must be set.
    public var colorBit: Int?
    /// Set when a licence filter is: the licence must be known, and these facts hold.
    public var license: SearchFilters.LicenseFilter?

    public init(_ filters: SearchFilters) {
        matchesNothing = filters.type.map { $0 != .photo } ?? false
        orientation = filters.orientation
        switch filters.size {
        case .small: shortSideBelow = SearchFilters.mediumShortSide
        case .medium: (minimumShortSide, shortSideBelow) = (SearchFilters.mediumShortSide, SearchFilters.largeShortSide)
        case .large: minimumShortSide = SearchFilters.largeShortSide
        case nil: break
        }
        colorBit = filters.color.map { LibraryPhoto.colorBits[$0]! }
        license = filters.license
    }

    /// Whether it narrows anything.
    public var isEmpty: Bool {
        !matchesNothing && orientation == nil && minimumShortSide == nil && shortSideBelow == nil && colorBit == nil
            && license == nil
    }

    /// The licence ids a filter names, family ids included: a photo matches when its id or its family is one.
    public var licenseIDs: [String] { license?.ids.map(\.rawValue) ?? [] }
}

extension LibraryPhoto {
    /// The `colors` column's bit for each colour. Stored in every index: never renumber, only add.
    public static let colorBits: [SearchFilters.Color: Int] = [
        .red: 1 << 0, .orange: 1 << 1, .yellow: 1 << 2, .green: 1 << 3, .turquoise: 1 << 4, .blue: 1 << 5,
        .lilac: 1 << 6, .pink: 1 << 7, .white: 1 << 8, .gray: 1 << 9, .black: 1 << 10, .brown: 1 << 11,
        .grayscale: 1 << 12, .transparent: 1 << 13,
    ]

    /// The palette as the `colors` column keeps it; `nil` when none was computed.
    public var colorMask: Int? {
        palette.map { $0.colors.reduce(0) { $0 | Self.colorBits[$1]! } }
    }

    /// The palette a `colors` value stands for.
    public static func palette(mask: Int?) -> ColorPalette? {
        mask.map { mask in ColorPalette(Set(colorBits.filter { mask & $0.value != 0 }.keys)) }
    }
}
