import Foundation
import TesseraCore
import Testing

@Suite("Attribution: one item's credit in text, HTML, Markdown and XML")
struct AttributionTests {
    static let flickr = Attribution(
        title: "Sunset <over> the bay", creator: Creator(name: "Jane & Co", url: "https://www.flickr.com/people/jane"),
        sourceName: "Flickr", pageURL: "https://www.flickr.com/photos/jane/1",
        license: Licenses.flickr(id: "4"))

    @Test func plainTextFollowsTASL() {
        #expect(
            Self.flickr.text
                == "“Sunset <over> the bay” by Jane & Co is licensed under CC BY 2.0. To view a copy of"
                + " this license, visit https://creativecommons.org/licenses/by/2.0/."
                + " Source: Flickr, https://www.flickr.com/photos/jane/1")
    }

    @Test func unknownLicenceIsSaidPlainly() {
        let item = Attribution(title: "Mystery", creator: Creator(name: "Someone"), pageURL: "https://example.org/m")
        #expect(
            item.text
                == "“Mystery” by Someone is under an unknown licence: ask the creator before any reuse."
                + " Source: https://example.org/m")
        let odd = Attribution(title: "Odd", license: Licenses.unknown(name: "Some terms"))
        #expect(
            odd.text == "“Odd” is under an unknown licence: ask the creator before any reuse.",
            "the service's words are not read as a licence")
        #expect(odd.xml.contains("<license id=\"unknown\">Licence unknown</license>"))
        #expect(odd.isLicenseUnknown && Attribution(title: "x").isLicenseUnknown)
    }

    @Test func reservedAndPublicDomainWording() {
        let notice = Attribution(
            title: " ", creator: Creator(name: "Jane"),
            license: Licenses.embedded(
                licenseURL: nil, usageTerms: nil, copyright: "© 2020 Jane Doe", folderDefault: nil))
        #expect(
            notice.text
                == "“Untitled” by Jane. All rights reserved (© 2020 Jane Doe): ask the creator before any reuse.")
        let reserved = Attribution(title: "Shut", license: Licenses.license(.allRightsReserved))
        #expect(reserved.text == "“Shut”. All rights reserved: ask the creator before any reuse.")
        let zero = Attribution(title: "Free", sourceName: "Openverse", license: Licenses.license(.cc0))
        #expect(
            zero.text
                == "“Free” is marked with CC0 1.0. To view a copy of this dedication, visit"
                + " https://creativecommons.org/publicdomain/zero/1.0/. Source: Openverse")
    }

    @Test func htmlEscapesEverythingAndLinksOnlyWebAddresses() {
        #expect(
            Self.flickr.html
                == "<p class=\"attribution\">“<a href=\"https://www.flickr.com/photos/jane/1\" rel=\"noopener noreferrer\">"
                + "Sunset &lt;over&gt; the bay</a>” by <a href=\"https://www.flickr.com/people/jane\""
                + " rel=\"noopener noreferrer\">Jane &amp; Co</a> is licensed under <a"
                + " href=\"https://creativecommons.org/licenses/by/2.0/\" rel=\"noopener noreferrer\">CC BY"
                + " 2.0</a>. Source: <a href=\"https://www.flickr.com/photos/jane/1\""
                + " rel=\"noopener noreferrer\">Flickr</a></p>")
        let hostile = Attribution(
            title: "<script>alert(1)</script>",
            creator: Creator(name: "x\" onmouseover=\"y", url: "javascript:alert(1)"),
            pageURL: "https://e.org/?a=1&b=2", license: Licenses.flickr(id: "4"))
        #expect(!hostile.html.contains("<script>"))
        #expect(!hostile.html.contains("javascript:"), "a javascript: address is never a link")
        #expect(hostile.html.contains("x&quot; onmouseover=&quot;y"))
        #expect(hostile.html.contains("href=\"https://e.org/?a=1&amp;b=2\""))
    }

    @Test func markdownEscapesMarkupAndLinks() {
        #expect(
            Self.flickr.markdown
                == "“[Sunset \\<over\\> the bay](https://www.flickr.com/photos/jane/1)” by"
                + " [Jane \\& Co](https://www.flickr.com/people/jane) is licensed under"
                + " [CC BY 2.0](https://creativecommons.org/licenses/by/2.0/)."
                + " Source: [Flickr](https://www.flickr.com/photos/jane/1)")
        let tricky = Attribution(title: "a](javascript:x) *b*", pageURL: "https://e.org/a_(b)")
        #expect(tricky.markdown.hasPrefix("“[a\\](javascript:x) \\*b\\*](https://e.org/a_%28b%29)”"))
    }

    @Test func xmlLikeOpenverse() {
        #expect(
            Self.flickr.xml == """
                <attribution>
                  <title>Sunset &lt;over&gt; the bay</title>
                  <creator url="https://www.flickr.com/people/jane">Jane &amp; Co</creator>
                  <license id="cc-by-2.0" url="https://creativecommons.org/licenses/by/2.0/">CC BY 2.0</license>
                  <source url="https://www.flickr.com/photos/jane/1">Flickr</source>
                </attribution>
                """)
    }

    @Test func fromAnItemNamesServicesNotThePersonsOwn() {
        var item = Item(
            id: ItemID(source: .wikimedia, nativeID: "File:A.jpg"), kind: .image, title: "A",
            pageURL: "https://commons.wikimedia.org/wiki/File:A.jpg")
        #expect(Attribution(item: item).sourceName == "Wikimedia Commons")
        item.source = .upload
        #expect(Attribution(item: item).sourceName == nil)
        #expect(
            Attribution(item: item).text
                == "“A” is under an unknown licence: ask the creator before any reuse."
                + " Source: https://commons.wikimedia.org/wiki/File:A.jpg")
        for format in Attribution.Format.allCases { #expect(!Attribution(item: item).formatted(format).isEmpty) }
    }
}

@Suite("Credits: a gallery's attributions, licences and warnings")
struct CreditsTests {
    static func entry(_ id: String, _ title: String, _ license: License?) -> Credits.Entry {
        Credits.Entry(id: id, attribution: Attribution(title: title, creator: Creator(name: "C"), license: license))
    }

    static let mixed = Credits(
        title: "Book <cover>",
        entries: [
            entry("gi_1", "Free", Licenses.license(.cc0)),
            entry("gi_2", "No sales", Licenses.flickr(id: "2")),
            entry("gi_3", "As is", Licenses.flickr(id: "6")),
            entry("gi_4", "Mystery", nil),
            entry("gi_5", "Closed", Licenses.license(.allRightsReserved)),
        ])

    @Test func warningsNameTheItemsConcerned() {
        let warnings = Self.mixed.warnings
        #expect(warnings.map(\.concern) == [.notCommercial, .noModification, .allRightsReserved, .unknownLicense])
        #expect(
            warnings.map(\.indices) == [[1], [2], [4], [3]],
            "all rights reserved and unknown licences are named once, on their own")
        #expect(warnings[0].message == "1 of 5 items may not be used commercially: #2 “No sales”.")
        #expect(warnings[1].message == "1 of 5 items may not be changed: #3 “As is”.")
        #expect(
            warnings[2].message
                == "1 of 5 items is all rights reserved, so ask the creator before any reuse: #5 “Closed”.")
        #expect(
            warnings[3].message
                == "1 of 5 items has an unknown licence, so do not reuse it without asking the creator: #4 “Mystery”.")
        let free = Credits(title: "Free", entries: [Self.entry("gi_1", "Free", Licenses.license(.pixabay))])
        #expect(free.warnings.isEmpty)
        #expect(!free.text.contains("Warning"))
    }

    @Test func textListsEveryCreditWithItsLicence() {
        let lines = Self.mixed.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "Credits for “Book <cover>”")
        #expect(lines[2].hasPrefix("Warning: 1 of 5 items may not be used commercially"))
        #expect(
            lines[7]
                == "1. “Free” by C is marked with CC0 1.0. To view a copy of this dedication, visit"
                + " https://creativecommons.org/publicdomain/zero/1.0/.")
        #expect(lines[8] == "   CC0 1.0 (cc0): You may use this commercially. You may change it. No credit required.")
        #expect(lines[13] == "4. “Mystery” by C is under an unknown licence: ask the creator before any reuse.")
        #expect(lines[14] == "   Licence unknown (unknown): Ask the creator before any reuse.")
        #expect(lines[15] == "5. “Closed” by C. All rights reserved: ask the creator before any reuse.")
        #expect(lines[16] == "   All rights reserved (all-rights-reserved): Ask the creator before any reuse.")
        #expect(Credits(title: "Empty", entries: []).text == "Credits for “Empty”\n\nNo items.\n")
    }

    /// An export's credits say what became of each restricted item's file, and the note says it once.
    @Test func anExportSaysWhichFilesItLeftOut() {
        var credits = Credits(
            title: "Trip",
            entries: [
                Credits.Entry(id: "gi_1", attribution: Attribution(title: "Free", license: Licenses.license(.cc0))),
                Credits.Entry(
                    id: "gi_2",
                    attribution: Attribution(
                        title: "Poster", pageURL: "https://example.org/p", license: Licenses.license(.allRightsReserved)
                    ),
                    restricted: true),
                Credits.Entry(id: "gi_3", attribution: Attribution(title: "dunes"), restricted: true),
            ])
        #expect(credits.restrictedNote == nil && !credits.text.contains("File"), "credits on their own say nothing")
        credits.restrictedFiles = .leftOut
        let lines = credits.text.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("Files left out: 2 of 3 items may not be shared (all rights reserved or an unknown"))
        #expect(lines.contains("   File left out: all rights reserved. Source page: https://example.org/p"))
        #expect(lines.contains("   File left out: its licence is unknown. No source page is known."))
        #expect(credits.html.contains("<p class=\"file\">File left out: all rights reserved."))
        credits.restrictedFiles = .included
        #expect(credits.text.contains("Private copy: this export includes the files of 2 of 3 items"))
        #expect(credits.text.contains("   File included in this private copy only: its licence is unknown."))
        #expect(credits.markdown.contains("**Private copy:"))
    }

    @Test func restrictedMeansNoSharingButNeverThePersonsOwn() {
        func item(_ source: SourceID, _ license: License?) -> Item {
            Item(id: ItemID(source: source, nativeID: "1"), kind: .image, title: "x", license: license)
        }
        #expect(item(.flickr, Licenses.license(.allRightsReserved)).isRestricted)
        #expect(item(.itunes, Licenses.itunes).isRestricted)
        #expect(item(.web, nil).isRestricted, "a picture added from an address: its licence is unknown")
        #expect(item(.wikimedia, Licenses.unknown()).isRestricted)
        #expect(!item(.flickr, Licenses.flickr(id: "2")).isRestricted, "non-commercial still allows sharing")
        #expect(!item(.upload, nil).isRestricted && !item(.local, Licenses.license(.allRightsReserved)).isRestricted)
    }

    @Test func htmlIsOneEscapedPage() {
        let html = Self.mixed.html
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<h1>Credits for “Book &lt;cover&gt;”</h1>"))
        #expect(!html.contains("<cover>"))
        #expect(html.contains("<li class=\"unknown_license\">1 of 5 items has an unknown licence"))
        #expect(html.components(separatedBy: "<p class=\"attribution\">").count == 6)
    }

    @Test func markdownNumbersTheCredits() {
        let markdown = Self.mixed.markdown
        #expect(markdown.hasPrefix("# Credits for “Book \\<cover\\>”\n\n> **Warning:** 1 of 5"))
        #expect(markdown.contains("\n2. “No sales” by C is licensed under "))
        #expect(
            markdown.contains(
                "\n   *Licence unknown (unknown): Ask the creator before any reuse.*"))
    }
}
