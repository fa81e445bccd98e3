import Foundation
import TesseraCore
import TesseraServer
import Testing

@Suite struct JSONBodyTests {
    @Test func assembledSearchResponseIsByteForByteTheEncodedOne() {
        var item = Item(
            id: ItemID(source: .pixabay, nativeID: "7"), kind: .image, title: "“Quotes” \"and\" /slashes/ ünïcode",
            tags: ["a"], creator: Creator(name: "C"), pageURL: "https://x/y",
            metadata: [MetadataEntry("K", "line\nbreak")])
        item.thumbnail = ImageRef(url: "/img/thumb/x/y", width: 4, height: 3)
        let sections = [
            SectionResult(id: .pixabay, items: [item], total: 1, hasMore: false),
            SectionResult.failed(.flickr, .timeout(.flickr, seconds: 8)),
        ]
        let query = #"cats "and" dogs / é"#
        let whole = JSONBody.encode(SearchResponse(query: query, scope: "all", page: 3, sections: sections))
        let assembled = JSONBody.searchResponse(
            query: query, scope: "all", page: 3, encodedSections: sections.map { JSONBody.encode($0) })
        #expect(String(decoding: assembled, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
    }
}
