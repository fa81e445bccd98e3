import Foundation

/// Reads licences: every source's licence fields become one `License` with a normalised id and three facts
/// (docs/licences.md). Pure functions and tables only, so each mapping is tested row by row.
///
/// Nothing is guessed permissive: what cannot be read is `unknown`, which allows neither commercial use
/// nor modification and requires credit.
public enum Licenses {
    // MARK: - Facts

    /// Commercial use, modification, credit for each licence family.
    struct Facts: Sendable, Hashable {
        var commercial: Bool
        var modification: Bool
        var credit: Bool
    }

    /// Creative Commons licence elements (`by-nc-sa`) and their facts; `nc` forbids commercial use, `nd`
    /// modification. Sampling+ allows transformation but not copying the whole work commercially: Tessera
    /// reads it as non-commercial.
    static let creativeCommonsFamilies: [String: Facts] = [
        "by": Facts(commercial: true, modification: true, credit: true),
        "by-sa": Facts(commercial: true, modification: true, credit: true),
        "by-nd": Facts(commercial: true, modification: false, credit: true),
        "by-nc": Facts(commercial: false, modification: true, credit: true),
        "by-nc-sa": Facts(commercial: false, modification: true, credit: true),
        "by-nc-nd": Facts(commercial: false, modification: false, credit: true),
        "sa": Facts(commercial: true, modification: true, credit: false),
        "sampling": Facts(commercial: false, modification: true, credit: true),
        "sampling-plus": Facts(commercial: false, modification: true, credit: true),
        "nc-sampling-plus": Facts(commercial: false, modification: true, credit: true),
    ]

    static let free = Facts(commercial: true, modification: true, credit: false)
    static let restricted = Facts(commercial: false, modification: false, credit: true)

    /// Licences without versions that are not Creative Commons licences.
    static let others: [LicenseID: (name: String, url: String?, facts: Facts)] = [
        .cc0: ("CC0 1.0", "https://creativecommons.org/publicdomain/zero/1.0/", free),
        .pdm: ("Public Domain Mark 1.0", "https://creativecommons.org/publicdomain/mark/1.0/", free),
        .publicDomain: ("Public domain", nil, free),
        .usGovernment: ("United States Government Work", nil, free),
        // Flickr Commons institutions ask for credit though they know of no rights.
        .noKnownCopyright: (
            "No known copyright restrictions", "https://www.flickr.com/commons/usage/",
            Facts(commercial: true, modification: true, credit: true)
        ),
        .pixabay: ("Pixabay Content License", "https://pixabay.com/service/license-summary/", free),
        .gfdl: (
            "GNU Free Documentation License", "https://www.gnu.org/copyleft/fdl.html",
            Facts(commercial: true, modification: true, credit: true)
        ),
        .allRightsReserved: ("All rights reserved", nil, restricted),
        .unknown: ("Unknown licence", nil, restricted),
    ]

    // MARK: - Building

    /// One of the licences without versions; `name` and `url` keep the service's wording where it has one.
    public static func license(_ id: LicenseID, name: String? = nil, url: String? = nil) -> License {
        let known = others[id] ?? others[.unknown]!
        let facts = known.facts
        return License(
            id: others[id] == nil ? .unknown : id, name: name ?? known.name,
            version: id == .cc0 || id == .pdm ? "1.0" : nil, url: url ?? known.url,
            allowsCommercialUse: facts.commercial, allowsModification: facts.modification,
            requiresCredit: facts.credit)
    }

    public static func unknown(name: String? = nil, url: String? = nil) -> License {
        license(.unknown, name: name, url: url)
    }

    /// A Creative Commons licence by its elements (`by-nc-sa`, `cc0`, `pdm`, `sampling+`) and version; `nil`
    /// when the code is not one. Marks, CC0 and the retired licences only ever had version 1.0; a licence
    /// without a version keeps no version (its id is the family's, `cc-by`).
    public static func creativeCommons(
        code rawCode: String, version rawVersion: String?, name: String? = nil, url: String? = nil
    ) -> License? {
        answers.value(for: CreativeCommonsQuestion(code: rawCode, version: rawVersion, name: name, url: url)) {
            readCreativeCommons(code: $0.code, version: $0.version, name: $0.name, url: $0.url)
        }
    }

    /// Every item of every page asks one of a few questions (a code, a version, a link), and answering one
    /// (Foundation's string replacing, slow on Linux) was a third of mapping a page: the answers are kept,
    /// at most 1,024 of them (the inputs are the services').
    private struct CreativeCommonsQuestion: Hashable {
        let code: String
        let version: String?
        let name: String?
        let url: String?
    }

    private static let answers = KeptAnswers<CreativeCommonsQuestion, License?>()

    private static func readCreativeCommons(
        code rawCode: String, version rawVersion: String?, name: String?, url: String?
    ) -> License? {
        let code = rawCode.lowercased().trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: "+", with: "-plus").replacingOccurrences(of: "_", with: "-")
        if code == "cc0" || code == "zero" { return license(.cc0, name: name, url: url) }
        if code == "pdm" || code == "mark" { return license(.pdm, name: name, url: url) }
        let normalised = normaliseElements(code)
        guard let facts = creativeCommonsFamilies[normalised] else { return nil }
        let retired = ["sa", "sampling", "sampling-plus", "nc-sampling-plus"].contains(normalised)
        let version = retired ? "1.0" : rawVersion.flatMap(cleanVersion)
        let id = LicenseID(rawValue: "cc-\(normalised)" + (version.map { "-\($0)" } ?? ""))
        let path = normalised.replacingOccurrences(of: "-plus", with: "+")
        let canonical = "CC " + path.uppercased().replacingOccurrences(of: "SAMPLING", with: "Sampling")
        return License(
            id: id, name: name ?? canonical + (version.map { " \($0)" } ?? ""), version: version,
            url: url ?? version.map { "https://creativecommons.org/licenses/\(path)/\($0)/" },
            allowsCommercialUse: facts.commercial, allowsModification: facts.modification,
            requiresCredit: facts.credit)
    }

    /// `nc-by` and `by-sa-nc` are written too; Creative Commons' order is by, nc, then sa or nd.
    static func normaliseElements(_ code: String) -> String {
        let parts = Set(code.split(separator: "-").map(String.init))
        if parts.contains("sampling") || parts.contains("plus") || parts == ["sa"] { return code }
        guard parts.contains("by") else { return code }
        var ordered = ["by"]
        if parts.contains("nc") { ordered.append("nc") }
        if parts.contains("sa") { ordered.append("sa") }
        if parts.contains("nd") { ordered.append("nd") }
        guard parts.isSubset(of: ["by", "nc", "sa", "nd"]), !(parts.contains("sa") && parts.contains("nd")) else {
            return code
        }
        return ordered.joined(separator: "-")
    }

    /// `4.0`, `3.0`, `2.5`, `1.0`; anything else is no version.
    static func cleanVersion(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let bytes = Array(trimmed.utf8)
        guard bytes.count == 3, (UInt8(ascii: "1")...UInt8(ascii: "4")).contains(bytes[0]),
            bytes[1] == UInt8(ascii: "."),
            (UInt8(ascii: "0")...UInt8(ascii: "5")).contains(bytes[2])
        else { return nil }
        return trimmed
    }

    // A regex literal is parsed and compiled again each time its expression runs (tens of microseconds: most
    // of a search page's mapping when it ran per item); kept once here, compiled on first use. `Regex` is not
    // `Sendable`, but its compiled program is stored once atomically and only read after, so sharing is safe.
    nonisolated(unsafe) private static let creativeCommonsLink = /creativecommons\.org\/licenses\/([a-z+\-]+)\/(\d\.\d)/
    nonisolated(unsafe) private static let creativeCommonsName =
        /\bcc[ \-]?((?:by|nc|sa|nd)(?:[ \-](?:by|nc|sa|nd))*)(?:[ \-](\d\.\d))?/

    // MARK: - From names and links

    /// A licence from a name and a link: the link when it is a known licence's, else the name, else
    /// `unknown` keeping the name and link as given.
    public static func identify(name: String, url: String?) -> License {
        let url = url.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        if let url, let found = fromURL(url, name: name) { return found }
        if let found = fromName(name, url: url) { return found }
        return unknown(name: name.isEmpty ? nil : name, url: url)
    }

    /// `creativecommons.org/licenses/by-sa/2.0/deed.en`, `…/publicdomain/zero/1.0/`, `…/publicdomain/mark/1.0/`.
    public static func fromURL(_ url: String, name: String? = nil) -> License? {
        let lower = url.lowercased()
        if let match = lower.firstMatch(of: creativeCommonsLink) {
            return creativeCommons(code: String(match.1), version: String(match.2), name: name, url: url)
        }
        if lower.contains("creativecommons.org/publicdomain/zero") { return license(.cc0, name: name, url: url) }
        if lower.contains("creativecommons.org/publicdomain/mark") { return license(.pdm, name: name, url: url) }
        if lower.contains("pixabay.com/service/license") { return license(.pixabay, name: name, url: url) }
        if lower.contains("gnu.org/copyleft/fdl") || lower.contains("gnu.org/licenses/fdl") {
            return license(.gfdl, name: name, url: url)
        }
        return nil
    }

    /// "CC BY-SA 4.0", "CC-BY-2.5", "cc0", "Public domain", "GFDL", "All rights reserved".
    public static func fromName(_ name: String, url: String? = nil) -> License? {
        let text = name.lowercased().trimmingCharacters(in: .whitespaces)
        let given = name.isEmpty ? nil : name
        if text.contains("cc0") || text.contains("cc zero") || text.contains("public domain dedication") {
            return license(.cc0, name: given, url: url)
        }
        if text.contains("public domain mark") { return license(.pdm, name: given, url: url) }
        if let match = text.firstMatch(of: creativeCommonsName) {
            let code = String(match.1).replacingOccurrences(of: " ", with: "-")
            return creativeCommons(code: code, version: match.2.map(String.init), name: given, url: url)
        }
        if text.hasPrefix("public domain") || text.hasPrefix("pd-") || text == "pd" {
            return license(.publicDomain, name: given, url: url)
        }
        if text.contains("pixabay") { return license(.pixabay, name: given, url: url) }
        if text.hasPrefix("gfdl") || text.contains("gnu free documentation") {
            return license(.gfdl, name: given, url: url)
        }
        if text.contains("all rights reserved") { return license(.allRightsReserved, name: given, url: url) }
        return nil
    }
}
