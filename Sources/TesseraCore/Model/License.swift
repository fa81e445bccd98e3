/// An item's licence: the service's own name for it and its link, and the normalised facts Tessera reads
/// from them (docs/licences.md). Built by `Licenses`, never by hand, so every source says the same thing
/// about the same licence.
public struct License: Sendable, Hashable {
    /// Normalised: `cc-by-4.0`, `cc0`, `pixabay`, `all-rights-reserved`, `unknown`...
    public var id: LicenseID
    /// What the service calls it ("Attribution License", "CC BY-SA 4.0"), or the canonical name.
    public var name: String
    /// `4.0`, `1.0`; `nil` for licences without versions.
    public var version: String?
    public var url: String?
    public var allowsCommercialUse: Bool
    public var allowsModification: Bool
    public var requiresCredit: Bool

    public init(
        id: LicenseID, name: String, version: String? = nil, url: String? = nil, allowsCommercialUse: Bool,
        allowsModification: Bool, requiresCredit: Bool
    ) {
        self.id = id
        self.name = name
        self.version = version
        self.url = url
        self.allowsCommercialUse = allowsCommercialUse
        self.allowsModification = allowsModification
        self.requiresCredit = requiresCredit
    }

    /// A licence read from a name and a link alone (`Licenses.identify`); unknown when neither names one.
    public init(name: String, url: String? = nil) {
        self = Licenses.identify(name: name, url: url)
    }
}

extension License: Codable {
    enum CodingKeys: String, CodingKey {
        case id, name, version, url, allowsCommercialUse, allowsModification, requiresCredit
    }

    /// Items stored before licences were normalised (and older clients) give only `name` and `url`: a
    /// licence without its id and all three facts is read again from those two.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let url = try container.decodeIfPresent(String.self, forKey: .url)
        guard let id = try container.decodeIfPresent(LicenseID.self, forKey: .id),
            let commercial = try container.decodeIfPresent(Bool.self, forKey: .allowsCommercialUse),
            let modification = try container.decodeIfPresent(Bool.self, forKey: .allowsModification),
            let credit = try container.decodeIfPresent(Bool.self, forKey: .requiresCredit)
        else {
            self = Licenses.identify(name: name, url: url)
            return
        }
        self.init(
            id: id, name: name, version: try container.decodeIfPresent(String.self, forKey: .version), url: url,
            allowsCommercialUse: commercial, allowsModification: modification, requiresCredit: credit)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(version, forKey: .version)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encode(allowsCommercialUse, forKey: .allowsCommercialUse)
        try container.encode(allowsModification, forKey: .allowsModification)
        try container.encode(requiresCredit, forKey: .requiresCredit)
    }
}

/// A normalised licence id: lower-case letters, digits, `-` and `.` (`cc-by-nc-sa-2.0`).
public struct LicenseID: RawRepresentable, Sendable, Hashable, Codable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// The id without its version (`cc-by-sa-2.0` → `cc-by-sa`): a filter naming the family matches every
    /// version of it.
    public var family: String {
        guard let dash = rawValue.lastIndex(of: "-"), rawValue[rawValue.index(after: dash)...].first?.isNumber == true
        else { return rawValue }
        return String(rawValue[..<dash])
    }

    public static func < (lhs: LicenseID, rhs: LicenseID) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let unknown: LicenseID = "unknown"
    public static let allRightsReserved: LicenseID = "all-rights-reserved"
    public static let cc0: LicenseID = "cc0"
    public static let pdm: LicenseID = "pdm"
    public static let publicDomain: LicenseID = "public-domain"
    public static let pixabay: LicenseID = "pixabay"
    public static let noKnownCopyright: LicenseID = "no-known-copyright"
    public static let usGovernment: LicenseID = "us-government-work"
    public static let gfdl: LicenseID = "gfdl"
}

extension License {
    /// Whether the licence lets a person reuse the picture at all, with or without conditions: every
    /// Creative Commons licence, CC0 and the public-domain marks, Pixabay's licence, the GFDL. Never all
    /// rights reserved (store items' terms among them) nor an unknown licence. `license=reusable` filters by it.
    public var allowsReuse: Bool { id != .unknown && id != .allRightsReserved }
}
