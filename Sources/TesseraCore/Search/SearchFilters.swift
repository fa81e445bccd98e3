/// What a search may be narrowed to (docs/filters.md): licence, orientation, size, colour, type. Validated at
/// the edge like the query and scope; an empty value set means "any".
public struct SearchFilters: Sendable, Hashable {
    /// A filter's name, as the API and the command line spell it.
    public enum Name: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        case license, orientation, size, color, type

        public static func < (lhs: Name, rhs: Name) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    public enum Orientation: String, Sendable, Hashable, CaseIterable { case landscape, portrait, square }
    public enum Size: String, Sendable, Hashable, CaseIterable { case small, medium, large }
    public enum Kind: String, Sendable, Hashable, CaseIterable { case photo, illustration, vector }
    /// Pixabay's colour names, plus `grayscale` and `transparent`.
    public enum Color: String, Sendable, Hashable, CaseIterable {
        case grayscale, transparent, red, orange, yellow, green, turquoise, blue, lilac, pink, white, gray, black
        case brown
    }

    /// `license=reusable,commercial,modification,cc0,cc-by`: every fact named must hold, and when ids are
    /// named the licence must be one of them (a family id matches every version). `reusable`: any licence
    /// that lets a person reuse the picture (`License.allowsReuse`).
    public struct LicenseFilter: Sendable, Hashable {
        public var reusable = false
        public var commercial = false
        public var modification = false
        public var ids: [LicenseID] = []

        public init(reusable: Bool = false, commercial: Bool = false, modification: Bool = false, ids: [LicenseID] = [])
        {
            self.reusable = reusable
            self.commercial = commercial
            self.modification = modification
            self.ids = ids
        }

        public func allows(_ license: License?) -> Bool {
            guard let license, license.id != .unknown else { return false }
            if reusable && !license.allowsReuse { return false }
            if commercial && !license.allowsCommercialUse { return false }
            if modification && !license.allowsModification { return false }
            if ids.isEmpty { return true }
            return ids.contains { $0 == license.id || $0.rawValue == license.id.family }
        }

        var rawValue: String {
            ((reusable ? ["reusable"] : []) + (commercial ? ["commercial"] : [])
                + (modification ? ["modification"] : []) + ids.map(\.rawValue))
                .joined(separator: ",")
        }
    }

    public var license: LicenseFilter?
    public var orientation: Orientation?
    public var size: Size?
    public var color: Color?
    public var type: Kind?

    public init(
        license: LicenseFilter? = nil, orientation: Orientation? = nil, size: Size? = nil, color: Color? = nil,
        type: Kind? = nil
    ) {
        self.license = license
        self.orientation = orientation
        self.size = size
        self.color = color
        self.type = type
    }

    public static let none = SearchFilters()

    /// The filters set, in a fixed order.
    public var names: [Name] {
        var names: [Name] = []
        if license != nil { names.append(.license) }
        if orientation != nil { names.append(.orientation) }
        if size != nil { names.append(.size) }
        if color != nil { names.append(.color) }
        if type != nil { names.append(.type) }
        return names
    }

    public var isEmpty: Bool { names.isEmpty }

    /// `name=value` pairs in a fixed order: the query string the CLI sends and the cache's key part.
    public var queryItems: [(name: String, value: String)] {
        names.map { ($0.rawValue, value(of: $0)) }
    }

    public func value(of name: Name) -> String {
        switch name {
        case .license: license?.rawValue ?? ""
        case .orientation: orientation?.rawValue ?? ""
        case .size: size?.rawValue ?? ""
        case .color: color?.rawValue ?? ""
        case .type: type?.rawValue ?? ""
        }
    }

    // MARK: - Parsing

    /// Validates raw values as they arrive from a URL or the command line; `nil` is "not given".
    public static func parse(
        license: String?, orientation: String?, size: String?, color: String?, type: String?
    ) throws(InputError) -> SearchFilters {
        var filters = SearchFilters()
        if let license { filters.license = try parseLicense(license) }
        filters.orientation = try parse(orientation, .orientation, Orientation.self)
        filters.size = try parse(size, .size, Size.self)
        filters.color = try parse(color, .color, Color.self)
        filters.type = try parse(type, .type, Kind.self)
        return filters
    }

    private static func parse<T: RawRepresentable & CaseIterable>(
        _ raw: String?, _ name: Name, _ type: T.Type
    ) throws(InputError) -> T? where T.RawValue == String {
        guard let raw else { return nil }
        guard let value = T(rawValue: raw) else {
            throw .invalidFilter(name: name.rawValue, value: raw, accepted: T.allCases.map(\.rawValue))
        }
        return value
    }

    /// The longest `license` value taken, and the most entries in it.
    public static let maxLicenseLength = 200
    public static let maxLicenseEntries = 16

    /// The licence ids a filter may name, exactly as docs/openapi.yaml's `License` parameter spells them (the
    /// canonical ids: the six current Creative Commons families with an optional version, and the others), so
    /// the server takes what the document allows and nothing more. `unknown` never passes, so it is not one.
    public static let licenseIDs =
        "cc0|pdm|public-domain|us-government-work|no-known-copyright|pixabay|gfdl|all-rights-reserved"
        + "|cc-(?:by|by-sa|by-nd|by-nc|by-nc-sa|by-nc-nd)(?:-[1-4]\\.[0-5])?"
    nonisolated(unsafe) private static let licenseIDPattern = try! Regex(licenseIDs)

    static func parseLicense(_ raw: String) throws(InputError) -> LicenseFilter {
        let entries = raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard raw.count <= maxLicenseLength, entries.count <= maxLicenseEntries else {
            throw .invalidLicenseFilter(raw)
        }
        var filter = LicenseFilter()
        for entry in entries {
            switch entry {
            case "reusable": filter.reusable = true
            case "commercial": filter.commercial = true
            case "modification": filter.modification = true
            default:
                let id = LicenseID(rawValue: entry)
                guard entry.wholeMatch(of: licenseIDPattern) != nil, Licenses.isKnown(id) else {
                    throw .invalidLicenseFilter(raw)
                }
                if !filter.ids.contains(id) { filter.ids.append(id) }
            }
        }
        return filter
    }

    // MARK: - Tessera's own checks

    /// Whether `item` passes filter `name`: `nil` when the item lacks the facts to tell.
    public func check(_ name: Name, _ item: Item) -> Bool? {
        switch name {
        case .license:
            return license?.allows(item.license) ?? true
        case .orientation:
            guard let orientation else { return true }
            guard let (width, height) = Self.dimensions(item) else { return nil }
            return Self.orientation(width: width, height: height) == orientation
        case .size:
            guard let size else { return true }
            guard let (width, height) = Self.dimensions(item) else { return nil }
            return Self.size(width: width, height: height) == size
        case .color, .type:
            return value(of: name).isEmpty ? true : nil
        }
    }

    /// Whether Tessera can check filter `name` on items of this kind without the source: licence and, for
    /// items that carry their pixel size, orientation and size.
    public static func checkable(_ name: Name) -> Bool {
        name == .license || name == .orientation || name == .size
    }

    /// Square when the longer side is at most 1.1 × the shorter; otherwise the longer side names it.
    public static func orientation(width: Int, height: Int) -> Orientation {
        let long = max(width, height)
        let short = min(width, height)
        if Double(long) <= Double(short) * squareRatio { return .square }
        return width > height ? .landscape : .portrait
    }

    public static let squareRatio = 1.1
    /// The shorter side's bounds: small below 640 px, medium 640–1599, large from 1600.
    public static let mediumShortSide = 640
    public static let largeShortSide = 1600

    public static func size(width: Int, height: Int) -> Size {
        let short = min(width, height)
        if short >= largeShortSide { return .large }
        return short >= mediumShortSide ? .medium : .small
    }

    /// "4000 × 3000", built once (see `Licenses.creativeCommonsLink`).
    nonisolated(unsafe) private static let originalSize = /^(\d+) × (\d+)$/

    /// The largest pixel size the item names: the original's ("Original size", which Pixabay, Flickr and
    /// Openverse give though they do not serve it), else its `full` image or largest rendition.
    static func dimensions(_ item: Item) -> (Int, Int)? {
        var candidates: [(Int, Int)] = []
        if let original = item.metadata.first(where: { $0.label == "Original size" })?.value,
            let match = original.firstMatch(of: originalSize), let width = Int(match.1), let height = Int(match.2)
        {
            candidates.append((width, height))
        }
        for image in [item.full].compactMap({ $0 }) + item.sizes.map(\.ref) {
            if let width = image.width, let height = image.height { candidates.append((width, height)) }
        }
        // Areas in `Double`: the sides are a service's numbers, and their product may not fit an `Int`.
        return candidates.filter { $0.0 > 0 && $0.1 > 0 }.max {
            Double($0.0) * Double($0.1) < Double($1.0) * Double($1.1)
        }
    }
}

extension Licenses {
    /// Whether a filter may name `id`: every id in docs/licences.md, and Creative Commons families with or
    /// without a version.
    public static func isKnown(_ id: LicenseID) -> Bool {
        if others[id] != nil { return true }
        if fromID(id) != nil { return true }
        return false
    }
}
