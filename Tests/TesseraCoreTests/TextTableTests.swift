import Testing

@testable import TesseraCore

@Suite("Text table")
struct TextTableTests {
    @Test func padsEachColumnToItsWidthTwoSpacesApart() {
        let table = TextTable([.right(4), .left(6), .left(nil)], indent: "  ")
        #expect(table.row(["7", "fox", "pixabay:1"]) == "     7  fox     pixabay:1")
        #expect(table.row(["12345", "longer than six", "x"]) == "  12345  longer than six  x", "too long: left whole")
        #expect(
            table.row(["1", "a", "b", "extra"]) == "     1  a       b  extra", "cells past the columns as they are")
    }

    @Test func clipsWithAnEllipsis() {
        #expect(TextTable.clip("Sunset over the sea", 10) == "Sunset ov…")
        #expect(TextTable.clip("Sunset", 6) == "Sunset")
        #expect(TextTable.clip("Sunset", 0) == "")
        #expect(TextTable.clip("東京の夜景", 3) == "東京…", "characters, not bytes")
    }

    /// Sources and people may put anything in a title or a name; none of it may reach the terminal as a control.
    @Test(arguments: [
        ("line\nbreak", "line break"), ("cr\r\nlf", "cr lf"), ("tab\there", "tab here"),
        ("\u{1B}[31mred", " [31mred"), ("del\u{7F}", "del "), ("csi\u{9B}31m", "csi 31m"),
        ("para\u{2029}sep", "para sep"), ("Café 🍎 👩‍👩‍👧", "Café 🍎 👩‍👩‍👧"),
    ])
    func turnsControlCharactersIntoSpaces(input: String, expected: String) {
        #expect(TextTable.clip(input, 80) == expected)
    }
}
