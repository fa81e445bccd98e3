import TesseraCore
import Testing

/// `license=reusable` (docs/filters.md): any licence that lets a person reuse the picture, with or without
/// conditions; never all rights reserved, store terms or an unknown licence.
@Suite("Only what you may use: license=reusable")
struct ReusableFilterTests {
    private static let reusable: [License] =
        ["by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd"].compactMap {
            Licenses.creativeCommons(code: $0, version: "2.0")
        }
        // Retired licences, which only ever had version 1.0.
        + ["sa", "sampling+"].compactMap { Licenses.creativeCommons(code: $0, version: "1.0") }
        + [LicenseID.cc0, .pdm, .publicDomain, .usGovernment, .noKnownCopyright, .pixabay, .gfdl].map {
            Licenses.license($0)
        }
    private static let notReusable: [License?] = [
        Licenses.license(.allRightsReserved), Licenses.itunes, Licenses.unknown(), Licenses.unknown(name: "MIT"), nil,
    ]

    @Test func everyLicenceThatLetsAPersonReuseThePicturePassesAndNoOtherDoes() throws {
        let filter = try #require(
            try SearchFilters.parse(license: "reusable", orientation: nil, size: nil, color: nil, type: nil).license)
        #expect(filter.reusable && !filter.commercial && !filter.modification && filter.ids.isEmpty)
        #expect(Self.reusable.count == 15, "every Creative Commons family and every other open licence")
        for license in Self.reusable { #expect(filter.allows(license), "\(license.id)") }
        for license in Self.notReusable { #expect(!filter.allows(license), "\(license?.name ?? "none")") }
    }

    @Test func itCombinesWithTheOtherValuesAndReadsBackTheSame() throws {
        let filters = try SearchFilters.parse(
            license: "commercial,reusable,cc-by", orientation: nil, size: nil, color: nil, type: nil)
        let filter = try #require(filters.license)
        #expect(filters.queryItems.map(\.value) == ["reusable,commercial,cc-by"])
        #expect(filter.allows(Licenses.creativeCommons(code: "by", version: "4.0")))
        #expect(!filter.allows(Licenses.creativeCommons(code: "by-nc", version: "4.0")), "not commercial, not CC BY")
        #expect(!filter.allows(Licenses.license(.cc0)), "not one of the ids named")
        // All rights reserved named beside `reusable`: every fact must hold, so nothing passes.
        let none = try #require(
            try SearchFilters.parse(
                license: "reusable,all-rights-reserved", orientation: nil, size: nil, color: nil, type: nil
            ).license)
        #expect(!none.allows(Licenses.license(.allRightsReserved)) && !none.allows(Licenses.license(.cc0)))
        #expect(throws: InputError.invalidLicenseFilter("reusable,")) {
            try SearchFilters.parse(license: "reusable,", orientation: nil, size: nil, color: nil, type: nil)
        }
    }
}
