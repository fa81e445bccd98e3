/// How a licence is named and said, as its licensor writes it: the one table the server, the CLI, the
/// exports and the web app read (docs/licences.md, "Names"). A service's own wording ("Attribution License")
/// stays in `License.name`; what Tessera shows is read from the normalised id, so the same licence reads the
/// same whichever service it came from.
public struct LicenseNaming: Sendable, Hashable {
    /// How a credit line states the licence.
    public enum Statement: Sendable, Hashable {
        /// "is licensed under CC BY 2.0"
        case license
        /// "is marked with CC0 1.0": a dedication is not a licence.
        case dedication
        /// "is in the public domain (Public Domain Mark 1.0)"
        case mark
        /// "is in the public domain": a statement without a mark.
        case publicDomain
        /// "has no known copyright restrictions" (Flickr Commons).
        case noKnownRestrictions
        /// "All rights reserved: ask the creator before any reuse"
        case reserved
        /// "is under an unknown licence"
        case unknown
    }

    /// The tile's mark: "CC BY", "CC BY-SA", "CC0", "PD", "Pixabay", "GFDL", "©" (all rights reserved and
    /// store items), "?" (unknown).
    public var badge: String
    /// The licence's short name and version: "CC BY 2.0", "CC0 1.0", "Public Domain Mark 1.0".
    public var name: String
    /// The name inside a sentence ("the Pixabay Content License"); the short name for most.
    public var nameInSentence: String
    /// The licence's deed (its human-readable summary), when it has one.
    public var deed: String?
    public var statement: Statement
    /// What a person may do, in a few words: "you may reuse it with credit".
    public var reuse: String
    /// How permissive it is, for choosing one copy of a picture over another (docs/duplicates.md): 6 for
    /// CC0 and the public-domain marks, 5 Pixabay's licence, 4 CC BY, 3 CC BY-SA and the GFDL, 2 the
    /// non-commercial and no-derivatives variants, 1 all rights reserved, 0 unknown.
    public var permissiveness: Int

    /// The tile's accessible name and the detail view's first line: "CC BY 2.0: you may reuse it with credit".
    public var label: String { "\(name): \(reuse)" }
}

extension License {
    /// The licence's names and how it is said (`LicenseNaming`).
    public var naming: LicenseNaming { LicenseNames.naming(self) }
}

extension LicenseNames {
    /// Every item of every answer asks for its licence's naming, and a page holds a few licences: the answers
    /// are kept (reading a Creative Commons id uses Foundation's string replacing, slow on Linux), at most
    /// 1,024 of them, as `Licenses` keeps its readings.
    private static let known = KeptAnswers<License, LicenseNaming>()

    public static func naming(_ license: License?) -> LicenseNaming {
        guard let license else { return unknown }
        return known.value(for: license, read)
    }
}

/// The table behind `LicenseNaming`, keyed by the normalised id (docs/licences.md, "Names").
public enum LicenseNames {
    static let askFirst = "ask the creator before any reuse"

    static func read(_ license: License) -> LicenseNaming {
        let url = license.url.flatMap { Attribution.isWebURL($0) ? $0 : nil }
        switch license.id {
        case .unknown: return unknown
        case .allRightsReserved:
            return LicenseNaming(
                badge: "©", name: "All rights reserved", nameInSentence: "All rights reserved", deed: nil,
                statement: .reserved, reuse: askFirst, permissiveness: 1)
        case .cc0:
            return named(
                license, badge: "CC0", name: "CC0 1.0", deed: "https://creativecommons.org/publicdomain/zero/1.0/",
                statement: .dedication, permissiveness: 6)
        case .pdm:
            return named(
                license, badge: "PD", name: "Public Domain Mark 1.0",
                deed: "https://creativecommons.org/publicdomain/mark/1.0/", statement: .mark, permissiveness: 6)
        case .publicDomain:
            return named(
                license, badge: "PD", name: "Public domain", deed: url, statement: .publicDomain, permissiveness: 6)
        case .usGovernment:
            return named(
                license, badge: "PD", name: "United States Government Work", deed: url, statement: .mark,
                permissiveness: 6)
        case .noKnownCopyright:
            return named(
                license, badge: "PD", name: "No known copyright restrictions",
                deed: url ?? "https://www.flickr.com/commons/usage/", statement: .noKnownRestrictions,
                permissiveness: 4)
        case .pixabay:
            return named(
                license, badge: "Pixabay", name: "Pixabay Content License",
                inSentence: "the Pixabay Content License", deed: url ?? "https://pixabay.com/service/license-summary/",
                statement: .license, permissiveness: 5)
        case .gfdl:
            return named(
                license, badge: "GFDL", name: "GNU FDL", inSentence: "the GNU Free Documentation License",
                deed: url ?? "https://www.gnu.org/licenses/fdl-1.3.html", statement: .license, permissiveness: 3,
                shareAlike: true)
        default:
            return creativeCommons(license, url: url) ?? unknown
        }
    }

    static let unknown = LicenseNaming(
        badge: "?", name: "Licence unknown", nameInSentence: "an unknown licence", deed: nil, statement: .unknown,
        reuse: askFirst, permissiveness: 0)

    /// `cc-by-nc-sa-2.0` → "CC BY-NC-SA 2.0", its deed, and its reuse in words.
    static func creativeCommons(_ license: License, url: String?) -> LicenseNaming? {
        let id = license.id
        guard id.rawValue.hasPrefix("cc-") else { return nil }
        let elements = String(id.family.dropFirst(3))
        guard Licenses.creativeCommonsFamilies[elements] != nil else { return nil }
        let path = elements.replacingOccurrences(of: "-plus", with: "+")
        let short =
            path.hasSuffix("sampling+") || path == "sampling"
            ? "CC " + path.replacingOccurrences(of: "sampling", with: "Sampling").uppercasedFirstParts
            : "CC " + path.uppercased()
        let version = license.version
        let canonical = version.map { "https://creativecommons.org/licenses/\(path)/\($0)/" }
        let deed = url.flatMap { $0.contains("creativecommons.org/") ? $0 : nil } ?? canonical
        let parts = Set(elements.split(separator: "-"))
        let permissiveness: Int =
            if parts.contains("nc") || parts.contains("nd") || parts.contains("sampling")
                || elements.hasSuffix("sampling-plus")
            {
                2
            } else if parts.contains("sa") {
                3
            } else {
                4
            }
        return named(
            license, badge: short, name: short + (version.map { " \($0)" } ?? ""), deed: deed, statement: .license,
            permissiveness: permissiveness, shareAlike: parts.contains("sa"))
    }

    private static func named(
        _ license: License, badge: String, name: String, inSentence: String? = nil, deed: String?,
        statement: LicenseNaming.Statement, permissiveness: Int, shareAlike: Bool = false
    ) -> LicenseNaming {
        LicenseNaming(
            badge: badge, name: name, nameInSentence: inSentence ?? name, deed: deed, statement: statement,
            reuse: reuse(license, shareAlike: shareAlike), permissiveness: permissiveness)
    }

    /// The three facts (and share-alike) in a few words: "you may reuse it with credit, not commercially".
    static func reuse(_ license: License, shareAlike: Bool) -> String {
        var words = license.allowsModification ? "you may reuse it" : "you may share it unchanged"
        if license.requiresCredit {
            words += license.allowsModification ? " with credit" : ", with credit"
        } else if license.allowsCommercialUse, license.allowsModification, !shareAlike {
            words += " freely"
        }
        if !license.allowsCommercialUse { words += ", not commercially" }
        if shareAlike { words += "; share changes under the same licence" }
        return words
    }
}

extension String {
    /// "nc-Sampling+" → "NC Sampling+": the retired Sampling licences' names.
    fileprivate var uppercasedFirstParts: String {
        split(separator: "-").map { $0.hasPrefix("Sampling") ? String($0) : $0.uppercased() }.joined(separator: " ")
    }
}
