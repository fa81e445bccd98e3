import TesseraCore
import Testing

@Suite struct PlainTextTests {
    @Test func stripsTagsAndDecodesEntities() {
        #expect(PlainText.fromHTML("<b>Bold</b> &amp; <i>more</i>") == "Bold & more")
        #expect(PlainText.fromHTML("Caf&eacute; &#233;&#x00E9; &lt;tag&gt;") == "Café éé <tag>")
        #expect(PlainText.fromHTML("<a href=\"https://x\">Jane</a>\n\n  Doe<br/>") == "Jane Doe")
        #expect(PlainText.fromHTML("<!-- note -->Hello") == "Hello")
    }

    @Test func leavesTextThatOnlyLooksLikeMarkupAlone() {
        #expect(PlainText.fromHTML("3 < 5 and 7 > 2") == "3 < 5 and 7 > 2")
        #expect(PlainText.fromHTML("AT&T & co; R&D") == "AT&T & co; R&D")
        #expect(PlainText.fromHTML("&bogus; &#xZZ;") == "&bogus; &#xZZ;")
    }

    @Test func hostileMarkupBecomesInertText() {
        // Entity-encoded markup is decoded to text; it is the UI's job to insert it as text.
        #expect(PlainText.fromHTML("&lt;img src=x onerror=alert(1)&gt;") == "<img src=x onerror=alert(1)>")
        #expect(PlainText.fromHTML("<img src=x onerror=alert(1)>Title") == "Title")
    }

    @Test func tagsAreNormalised() {
        #expect(Tags.commaSeparated("Apples, fruits,  RED, apples, ") == ["apples", "fruits", "red"])
        #expect(Tags.spaceSeparated("10faves  balloon\tsky") == ["10faves", "balloon", "sky"])
        #expect(Tags.normalize(["<b>Nature</b>", " ", "nature"]) == ["nature"])
    }

    /// Plain text skips the character walk; anything that is not plain must still come out collapsed.
    @Test(arguments: [
        ("Red apples", "Red apples"), ("Café naïve 東京 🍎", "Café naïve 東京 🍎"), ("", ""), ("   ", ""),
        (" lead", "lead"), ("trail ", "trail"), ("two  spaces", "two spaces"), ("tab\there", "tab here"),
        ("line\r\nbreak", "line break"), ("no\u{00A0}break", "no break"), ("ideo\u{3000}space", "ideo space"),
        ("thin\u{2009}space", "thin space"), ("em—dash “quotes”", "em—dash “quotes”"),
    ])
    func plainTextFastPathAgreesWithTheFullWalk(input: String, expected: String) {
        #expect(PlainText.fromHTML(input) == expected)
        #expect(PlainText.collapsingWhitespace(input) == expected)
    }

    @Test func formats() {
        #expect(Format.bytes(999) == "999 bytes")
        #expect(Format.bytes(811_238) == "811 KB")
        #expect(Format.bytes(4_200_000) == "4.2 MB")
        #expect(Format.dimensions(3345, 5017) == "3345 × 5017")
        #expect(Format.dimensions(nil, 5) == nil)
        #expect(Format.duration(milliseconds: 6_793_995) == "1:53:14")
        #expect(Format.duration(milliseconds: 215_000) == "3:35")
    }
}
