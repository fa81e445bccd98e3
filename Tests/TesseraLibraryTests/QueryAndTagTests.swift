import Foundation
import Testing

@testable import TesseraLibrary

@Suite("Search words and path tags")
struct QueryAndTagTests {
    @Test func wordsAreRunsOfLettersAndDigits() {
        #expect(SearchQuery("  falcon-9   launch ").words == ["falcon", "9", "launch"])
        #expect(SearchQuery("\"cat\" OR (dog*)").words == ["cat", "OR", "dog"])
        #expect(SearchQuery("Crème brûlée").words == ["Crème", "brûlée"])
        #expect(SearchQuery("cat CAT Cat").words == ["cat"], "repeats add nothing")
    }

    @Test func everyWordIsAQuotedPrefixTerm() {
        #expect(SearchQuery("near sea").matchExpression == #""near"* "sea"*"#)
        #expect(SearchQuery("title:cat").matchExpression == #""title"* "cat"*"#)
        #expect(SearchQuery("*").matchExpression == nil)
    }

    @Test func manyWordsAreCapped() {
        let query = SearchQuery((1...40).map { "w\($0)" }.joined(separator: " "))
        #expect(query.words.count == SearchQuery.maxWords)
    }

    @Test func tagsComeFromFoldersAndFileNameWords() {
        #expect(
            PathTags.tags(forPath: "Holidays/Lisbon 2023/tram_at-night_0042.jpg")
                == ["holidays", "lisbon 2023", "tram", "night"])
        #expect(PathTags.tags(forPath: "IMG_20230101_120000.jpg").isEmpty, "camera names and numbers are not tags")
        #expect(PathTags.tags(forPath: "DSC01234 copy.JPG").isEmpty)
        #expect(PathTags.tags(forPath: "Pets/chelsea-the-tabby-cat.jpg") == ["pets", "chelsea", "tabby", "cat"])
    }

    @Test func titleFromTheFileName() {
        #expect(PathTags.readableTitle(fileName: "espresso-cup_on.a  table.jpg") == "Espresso cup on a table")
        #expect(PathTags.readableTitle(fileName: "IMG_0042.JPG") == "IMG 0042")
        #expect(PathTags.readableTitle(fileName: "a.jpg") == "A")
    }
}
