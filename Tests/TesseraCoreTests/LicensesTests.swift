import Foundation
import TesseraCore
import Testing

/// One licence row: id, version, and the three facts (commercial use, modification, credit).
private struct Row: CustomStringConvertible {
    var id: LicenseID
    var version: String?
    var commercial: Bool
    var modification: Bool
    var credit: Bool

    init(_ id: LicenseID, _ version: String?, _ commercial: Bool, _ modification: Bool, _ credit: Bool) {
        (self.id, self.version, self.commercial, self.modification, self.credit) =
            (id, version, commercial, modification, credit)
    }

    var description: String { "\(id) \(version ?? "-") \(commercial) \(modification) \(credit)" }

    func check(_ license: License, _ context: String) {
        #expect(license.id == id, "\(context)")
        #expect(license.version == version, "\(context)")
        #expect(license.allowsCommercialUse == commercial, "\(context): commercial")
        #expect(license.allowsModification == modification, "\(context): modification")
        #expect(license.requiresCredit == credit, "\(context): credit")
    }
}

@Suite("Licences: every source's fields into one id and three facts")
struct LicensesTests {
    @Test func flickrIDs() {
        let rows: [String?: Row] = [
            "0": Row(.allRightsReserved, nil, false, false, true),
            "1": Row("cc-by-nc-sa-2.0", "2.0", false, true, true),
            "2": Row("cc-by-nc-2.0", "2.0", false, true, true),
            "3": Row("cc-by-nc-nd-2.0", "2.0", false, false, true),
            "4": Row("cc-by-2.0", "2.0", true, true, true),
            "5": Row("cc-by-sa-2.0", "2.0", true, true, true),
            "6": Row("cc-by-nd-2.0", "2.0", true, false, true),
            "7": Row(.noKnownCopyright, nil, true, true, true),
            "8": Row(.usGovernment, nil, true, true, false),
            "9": Row(.cc0, "1.0", true, true, false),
            "10": Row(.pdm, "1.0", true, true, false),
            "11": Row("cc-by-4.0", "4.0", true, true, true),
            "12": Row("cc-by-sa-4.0", "4.0", true, true, true),
            "13": Row("cc-by-nd-4.0", "4.0", true, false, true),
            "14": Row("cc-by-nc-4.0", "4.0", false, true, true),
            "15": Row("cc-by-nc-sa-4.0", "4.0", false, true, true),
            "16": Row("cc-by-nc-nd-4.0", "4.0", false, false, true),
            "17": Row(.unknown, nil, false, false, true),
            " 4 ": Row("cc-by-2.0", "2.0", true, true, true),
            "x": Row(.unknown, nil, false, false, true),
            nil: Row(.unknown, nil, false, false, true),
        ]
        for (id, row) in rows { row.check(Licenses.flickr(id: id), "flickr \(id ?? "nil")") }
        #expect(Licenses.flickr(id: "4").name == "Attribution License", "Flickr's own wording is kept")
        #expect(Licenses.flickr(id: "4").url == "https://creativecommons.org/licenses/by/2.0/")
        #expect(Licenses.flickrIDs { $0.allowsCommercialUse } == [4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    }

    @Test func openverseCodesAndVersions() {
        let rows: [(String?, String?, Row)] = [
            ("by", "4.0", Row("cc-by-4.0", "4.0", true, true, true)),
            ("by-sa", "3.0", Row("cc-by-sa-3.0", "3.0", true, true, true)),
            ("by-nd", "2.5", Row("cc-by-nd-2.5", "2.5", true, false, true)),
            ("by-nc", "2.0", Row("cc-by-nc-2.0", "2.0", false, true, true)),
            ("by-nc-sa", "4.0", Row("cc-by-nc-sa-4.0", "4.0", false, true, true)),
            ("by-nc-nd", "3.0", Row("cc-by-nc-nd-3.0", "3.0", false, false, true)),
            ("cc0", "1.0", Row(.cc0, "1.0", true, true, false)),
            ("pdm", nil, Row(.pdm, "1.0", true, true, false)),
            ("sampling+", "1.0", Row("cc-sampling-plus-1.0", "1.0", false, true, true)),
            ("nc-sampling+", nil, Row("cc-nc-sampling-plus-1.0", "1.0", false, true, true)),
            ("by", nil, Row("cc-by", nil, true, true, true)),
            ("by", "nonsense", Row("cc-by", nil, true, true, true)),
            ("xyz", "1.0", Row(.unknown, nil, false, false, true)),
            (nil, nil, Row(.unknown, nil, false, false, true)),
            ("", "4.0", Row(.unknown, nil, false, false, true)),
        ]
        for (code, version, row) in rows {
            row.check(Licenses.openverse(license: code, version: version, url: nil), "openverse \(code ?? "nil")")
        }
        let given = Licenses.openverse(
            license: "by", version: "2.0", url: "https://creativecommons.org/licenses/by/2.0/")
        #expect(given.url == "https://creativecommons.org/licenses/by/2.0/" && given.name == "CC BY 2.0")
        #expect(
            Licenses.openverse(license: "by-sa", version: "4.0", url: nil).url
                == "https://creativecommons.org/licenses/by-sa/4.0/")
    }

    @Test func wikimediaExtMetadata() {
        let deed = "https://creativecommons.org/licenses/by-sa/4.0"
        let rows: [(String?, String?, String?, String?, Row)] = [
            ("CC BY-SA 4.0", deed, nil, "true", Row("cc-by-sa-4.0", "4.0", true, true, true)),
            ("CC BY 2.5", nil, nil, nil, Row("cc-by-2.5", "2.5", true, true, true)),
            (
                "CC BY-SA 3.0 de", "https://creativecommons.org/licenses/by-sa/3.0/de/deed.en", nil, "true",
                Row("cc-by-sa-3.0", "3.0", true, true, true)
            ),
            (
                "CC0", "https://creativecommons.org/publicdomain/zero/1.0/deed.en", nil, "false",
                Row(.cc0, "1.0", true, true, false)
            ),
            ("Public domain", nil, nil, "false", Row(.publicDomain, nil, true, true, false)),
            ("Public domain", nil, nil, "true", Row(.publicDomain, nil, true, true, true)),
            ("GFDL", "http://www.gnu.org/copyleft/fdl.html", nil, "true", Row(.gfdl, nil, true, true, true)),
            (nil, nil, "Public domain", nil, Row(.publicDomain, nil, true, true, false)),
            ("Some custom terms", nil, nil, "false", Row(.unknown, nil, false, false, true)),
            (nil, nil, nil, nil, Row(.unknown, nil, false, false, true)),
        ]
        for (name, url, terms, attribution, row) in rows {
            let license = Licenses.wikimedia(
                shortName: name, url: url, usageTerms: terms, attributionRequired: attribution)
            row.check(license, "wikimedia \(name ?? terms ?? "nil") \(attribution ?? "-")")
        }
        #expect(Licenses.wikimedia(shortName: "Some custom terms", url: nil).name == "Some custom terms")
    }

    @Test func pixabayAndITunes() {
        Row(.pixabay, nil, true, true, false).check(Licenses.pixabay, "pixabay")
        #expect(Licenses.pixabay.url == "https://pixabay.com/service/license-summary/")
        Row(.allRightsReserved, nil, false, false, true).check(Licenses.itunes, "itunes")
    }

    @Test func embeddedRightsThenFolderDefaultThenUnknown() {
        let rows: [(String?, String?, String?, String?, Row)] = [
            (
                "https://creativecommons.org/licenses/by-nc/4.0/", nil, "© Jane", "cc0",
                Row("cc-by-nc-4.0", "4.0", false, true, true)
            ),
            (nil, "This work is licensed under CC BY-ND 4.0", nil, nil, Row("cc-by-nd-4.0", "4.0", true, false, true)),
            (nil, nil, "CC0 by Stefan", nil, Row(.cc0, "1.0", true, true, false)),
            (nil, nil, "© 2020 Jane Doe", nil, Row(.allRightsReserved, nil, false, false, true)),
            (nil, nil, "© 2020 Jane Doe", "cc-by-4.0", Row("cc-by-4.0", "4.0", true, true, true)),
            (nil, nil, nil, "cc-by-sa-2.0", Row("cc-by-sa-2.0", "2.0", true, true, true)),
            (nil, nil, nil, "https://creativecommons.org/publicdomain/zero/1.0/", Row(.cc0, "1.0", true, true, false)),
            (nil, nil, nil, "All rights reserved\nsecond line", Row(.allRightsReserved, nil, false, false, true)),
            (nil, nil, nil, "whatever I like", Row(.unknown, nil, false, false, true)),
            (nil, nil, nil, nil, Row(.unknown, nil, false, false, true)),
        ]
        for (link, terms, copyright, folder, row) in rows {
            let license = Licenses.embedded(
                licenseURL: link, usageTerms: terms, copyright: copyright, folderDefault: folder)
            row.check(license, "embedded \(link ?? terms ?? copyright ?? folder ?? "nothing")")
        }
        #expect(
            Licenses.embedded(licenseURL: nil, usageTerms: nil, copyright: "© 2020 Jane Doe", folderDefault: nil)
                .name == "© 2020 Jane Doe")
    }

    @Test func namesAndIDs() {
        let names: [String: LicenseID] = [
            "CC BY-SA 4.0": "cc-by-sa-4.0", "cc-by-nc-nd-3.0": "cc-by-nc-nd-3.0", "CC-BY 2.0": "cc-by-2.0",
            "CC BY-NC-SA": "cc-by-nc-sa", "Creative Commons CC0": .cc0, "All Rights Reserved": .allRightsReserved,
            "Public Domain Mark": .pdm, "": .unknown, "CC BY-SA-ND 4.0": .unknown, "Freeware": .unknown,
        ]
        for (name, id) in names { #expect(License(name: name).id == id, "\(name)") }
        for id: LicenseID in ["cc-by-4.0", "cc-by-nc-sa-2.0", "cc0", "pdm", "pixabay", "cc-sampling-plus-1.0"] {
            #expect(Licenses.fromID(id)?.id == id, "\(id)")
        }
        #expect(Licenses.fromID("cc-by-9.0") == nil && Licenses.fromID("mit") == nil)
        #expect(LicenseID("cc-by-nc-sa-2.0").family == "cc-by-nc-sa" && LicenseID.cc0.family == "cc0")
        #expect(LicenseID("cc-by").family == "cc-by")
    }

    @Test func jsonCarriesTheFactsAndOldItemsAreReadAgain() throws {
        let license = Licenses.flickr(id: "5")
        let item = Item(id: ItemID(source: .flickr, nativeID: "1"), kind: .image, title: "t", license: license)
        let data = try JSONEncoder().encode(item)
        #expect(try FastJSONDecoder.decode(Item.self, from: data) == item)
        #expect(try JSONDecoder().decode(Item.self, from: data) == item)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""allowsCommercialUse":true"#) && text.contains(#""id":"cc-by-sa-2.0""#))

        let old = Data(
            #"{"id":"flickr:1","source":"flickr","kind":"image","title":"t","tags":[],"sizes":[],"metadata":[],"license":{"name":"Attribution-NonCommercial License","url":"https://creativecommons.org/licenses/by-nc/2.0/"}}"#
                .utf8)
        for decoded in [
            try FastJSONDecoder.decode(Item.self, from: old), try JSONDecoder().decode(Item.self, from: old),
        ] {
            Row("cc-by-nc-2.0", "2.0", false, true, true).check(try #require(decoded.license), "old item")
            #expect(decoded.license?.name == "Attribution-NonCommercial License")
        }
        let partial = Data(#"{"name":"Mine","id":"cc0","allowsCommercialUse":true}"#.utf8)
        Row(.unknown, nil, false, false, true).check(try JSONDecoder().decode(License.self, from: partial), "partial")
    }
}
