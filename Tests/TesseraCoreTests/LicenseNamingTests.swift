import Foundation
import TesseraCore
import Testing

/// `LicenseNames` row by row, and against docs/licences.md: every id the doc names reads as its "Names"
/// table says, so the doc, the server, the CLI, the exports and the web app (which shows the server's
/// strings) agree.
@Suite("Licence names: badges, short names and what a credit says")
struct LicenseNamingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var id: LicenseID
        var badge: String
        var name: String
        var label: String
        /// The credit for “T” by A, without a source.
        var credit: String
        var testDescription: String { id.rawValue }
    }

    static let rows: [Row] = [
        Row(
            id: "cc-by-2.0", badge: "CC BY", name: "CC BY 2.0", label: "CC BY 2.0: you may reuse it with credit",
            credit:
                "“T” by A is licensed under CC BY 2.0. To view a copy of this license, visit https://creativecommons.org/licenses/by/2.0/."
        ),
        Row(
            id: "cc-by-sa-4.0", badge: "CC BY-SA", name: "CC BY-SA 4.0",
            label: "CC BY-SA 4.0: you may reuse it with credit; share changes under the same licence",
            credit:
                "“T” by A is licensed under CC BY-SA 4.0. To view a copy of this license, visit https://creativecommons.org/licenses/by-sa/4.0/."
        ),
        Row(
            id: "cc-by-nd-3.0", badge: "CC BY-ND", name: "CC BY-ND 3.0",
            label: "CC BY-ND 3.0: you may share it unchanged, with credit",
            credit:
                "“T” by A is licensed under CC BY-ND 3.0. To view a copy of this license, visit https://creativecommons.org/licenses/by-nd/3.0/."
        ),
        Row(
            id: "cc-by-nc-2.0", badge: "CC BY-NC", name: "CC BY-NC 2.0",
            label: "CC BY-NC 2.0: you may reuse it with credit, not commercially",
            credit:
                "“T” by A is licensed under CC BY-NC 2.0. To view a copy of this license, visit https://creativecommons.org/licenses/by-nc/2.0/."
        ),
        Row(
            id: "cc-by-nc-sa-2.5", badge: "CC BY-NC-SA", name: "CC BY-NC-SA 2.5",
            label:
                "CC BY-NC-SA 2.5: you may reuse it with credit, not commercially; share changes under the same licence",
            credit:
                "“T” by A is licensed under CC BY-NC-SA 2.5. To view a copy of this license, visit https://creativecommons.org/licenses/by-nc-sa/2.5/."
        ),
        Row(
            id: "cc-by-nc-nd-4.0", badge: "CC BY-NC-ND", name: "CC BY-NC-ND 4.0",
            label: "CC BY-NC-ND 4.0: you may share it unchanged, with credit, not commercially",
            credit:
                "“T” by A is licensed under CC BY-NC-ND 4.0. To view a copy of this license, visit https://creativecommons.org/licenses/by-nc-nd/4.0/."
        ),
        Row(
            id: "cc-by-nc", badge: "CC BY-NC", name: "CC BY-NC",
            label: "CC BY-NC: you may reuse it with credit, not commercially",
            credit: "“T” by A is licensed under CC BY-NC."
        ),
        Row(
            id: "cc-sampling-plus-1.0", badge: "CC Sampling+", name: "CC Sampling+ 1.0",
            label: "CC Sampling+ 1.0: you may reuse it with credit, not commercially",
            credit:
                "“T” by A is licensed under CC Sampling+ 1.0. To view a copy of this license, visit https://creativecommons.org/licenses/sampling+/1.0/."
        ),
        Row(
            id: "cc-nc-sampling-plus-1.0", badge: "CC NC Sampling+", name: "CC NC Sampling+ 1.0",
            label: "CC NC Sampling+ 1.0: you may reuse it with credit, not commercially",
            credit:
                "“T” by A is licensed under CC NC Sampling+ 1.0. To view a copy of this license, visit https://creativecommons.org/licenses/nc-sampling+/1.0/."
        ),
        Row(
            id: "cc0", badge: "CC0", name: "CC0 1.0", label: "CC0 1.0: you may reuse it freely",
            credit:
                "“T” by A is marked with CC0 1.0. To view a copy of this dedication, visit https://creativecommons.org/publicdomain/zero/1.0/."
        ),
        Row(
            id: "pdm", badge: "PD", name: "Public Domain Mark 1.0",
            label: "Public Domain Mark 1.0: you may reuse it freely",
            credit:
                "“T” by A is in the public domain (Public Domain Mark 1.0). To view a copy of this mark, visit https://creativecommons.org/publicdomain/mark/1.0/."
        ),
        Row(
            id: "public-domain", badge: "PD", name: "Public domain", label: "Public domain: you may reuse it freely",
            credit: "“T” by A is in the public domain."
        ),
        Row(
            id: "us-government-work", badge: "PD", name: "United States Government Work",
            label: "United States Government Work: you may reuse it freely",
            credit: "“T” by A is in the public domain (United States Government Work)."
        ),
        Row(
            id: "no-known-copyright", badge: "PD", name: "No known copyright restrictions",
            label: "No known copyright restrictions: you may reuse it with credit",
            credit: "“T” by A has no known copyright restrictions."
        ),
        Row(
            id: "pixabay", badge: "Pixabay", name: "Pixabay Content License",
            label: "Pixabay Content License: you may reuse it freely",
            credit:
                "“T” by A is licensed under the Pixabay Content License. To view a copy of this license, visit https://pixabay.com/service/license-summary/."
        ),
        Row(
            id: "gfdl", badge: "GFDL", name: "GNU FDL",
            label: "GNU FDL: you may reuse it with credit; share changes under the same licence",
            credit:
                "“T” by A is licensed under the GNU Free Documentation License. To view a copy of this license, visit https://www.gnu.org/copyleft/fdl.html."
        ),
        Row(
            id: "all-rights-reserved", badge: "©", name: "All rights reserved",
            label: "All rights reserved: ask the creator before any reuse",
            credit: "“T” by A. All rights reserved: ask the creator before any reuse."
        ),
        Row(
            id: "unknown", badge: "?", name: "Licence unknown",
            label: "Licence unknown: ask the creator before any reuse",
            credit: "“T” by A is under an unknown licence: ask the creator before any reuse."
        ),
    ]

    static func license(_ id: LicenseID) -> License { Licenses.fromID(id) ?? Licenses.license(id) }

    @Test(arguments: rows) func namesAndCredit(_ row: Row) {
        let license = Self.license(row.id)
        #expect(license.id == row.id)
        let naming = license.naming
        #expect(naming.badge == row.badge)
        #expect(naming.name == row.name)
        #expect(naming.label == row.label)
        #expect(Attribution(title: "T", creator: Creator(name: "A"), license: license).text == row.credit)
        #expect(!row.credit.contains("licensed under Public"), "public domain is a mark, not a licence")
    }

    /// The service's own wording never reaches the short name: Flickr's "Attribution License" is CC BY 2.0.
    @Test func servicesWordingIsNotTheName() {
        let flickr = Licenses.flickr(id: "4")
        #expect(flickr.name == "Attribution License")
        #expect(flickr.naming.name == "CC BY 2.0")
        #expect(Licenses.itunes.naming.badge == "©")
        #expect(
            Attribution(title: "T", license: Licenses.itunes).text
                .hasSuffix(
                    "All rights reserved (Apple Media Services terms (preview courtesy of iTunes)): ask the creator before any reuse."
                ))
    }

    /// Most permissive first, as a group's representative is chosen (docs/duplicates.md).
    @Test func permissivenessOrdersTheFamilies() {
        let order: [[LicenseID]] = [
            ["cc0", "pdm", "public-domain", "us-government-work"], ["pixabay"], ["cc-by-4.0", "no-known-copyright"],
            ["cc-by-sa-4.0", "gfdl"], ["cc-by-nc-4.0", "cc-by-nd-4.0", "cc-by-nc-sa-4.0", "cc-by-nc-nd-4.0"],
            ["all-rights-reserved"], ["unknown"],
        ]
        let ranks = order.map { Set($0.map { Self.license($0).naming.permissiveness }) }
        #expect(ranks.allSatisfy { $0.count == 1 })
        let values = ranks.compactMap(\.first)
        #expect(values == values.sorted(by: >) && Set(values).count == values.count)
    }

    /// Every id in docs/licences.md's table of ids (each version of a versioned family) has a row here, so
    /// a licence added to the doc cannot go unnamed.
    @Test func everyIdInTheDocHasARow() throws {
        let doc = try String(contentsOf: Self.docs.appending(path: "licences.md"), encoding: .utf8)
        let section = try #require(
            doc.components(separatedBy: "## Ids and facts").last?.components(separatedBy: "\n## ").first)
        var ids: Set<String> = []
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.split(separator: "|")[0]
            for match in cell.matches(of: /`([a-zA-Z0-9\-.]+)`/) { ids.insert(String(match.1)) }
        }
        #expect(ids.count >= 15)
        let covered = Set(Self.rows.map { $0.id.family })
        for id in ids {
            let family = id.hasSuffix("-V") ? String(id.dropLast(2)) : LicenseID(rawValue: id).family
            #expect(covered.contains(family), "\(id) in docs/licences.md has no row in LicenseNamingTests")
        }
    }

    static let docs = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "docs")
}
