import Foundation
import TesseraCore
import TesseraServer
import Testing

/// The hand-written search encoding must give exactly what `JSONEncoder` gives.
@Suite struct JSONBodyTests {
    private func foundation(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private var awkwardItem: Item {
        var item = Item(
            id: ItemID(source: .wikimedia, nativeID: "File:A \"b\".jpg"), kind: .image,
            title: "“Quotes” \"and\" \\back\\ /slashes/ ünïcode 🦊 \u{1}\u{8}\u{c}\t\r\n\u{1f}\u{7f}",
            tags: ["a", "ß"], creator: Creator(name: "C", url: "https://x/c"),
            license: License(name: "CC BY-SA 2.0 \"p\"", url: "https://creativecommons.org/licenses/by-sa/2.0/"),
            pageURL: "https://x/y?a=1&b=2",
            sizes: [
                ImageSize(name: "thumb", url: "/img/original/a/b", width: 320, height: 240),
                ImageSize(name: "odd", url: "/img/original/c/d"),
                ImageSize(name: "wide", url: "/img/original/e/f", width: 10),
            ],
            metadata: [MetadataEntry("K", "line\nbreak"), MetadataEntry("Empty", "")])
        item.thumbnail = ImageRef(url: "/img/thumb/x/y", width: 4, height: 3)
        item.preview = ImageRef(url: "/img/preview/x/y", height: 7)
        return item
    }

    /// A store's item: a preview, and listings with every field, with none, and with awkward numbers.
    private var storeItems: [Item] {
        let full = StoreListing(
            price: "2.99 \"USD\"", rating: 4.53571, ratingCount: 197_847, description: "A\nB <b>&</b>",
            screenshots: [
                ImageRef(url: "/img/preview/s/1", width: 392, height: 696), ImageRef(url: "/img/preview/s/2"),
            ])
        let ratings: [Double] = [0, 5, 4, 3.351059999999999927666749499621801, 0.1, 1e-7, 2.5e-300]
        return [
            Item(
                id: ItemID(source: .itunes, nativeID: "2"), kind: .song, title: "S",
                mediaPreview: MediaPreview(url: "/media/a/b", kind: .audio), listing: full),
            Item(
                id: ItemID(source: .itunes, nativeID: "3"), kind: .movie, title: "M",
                mediaPreview: MediaPreview(url: "/media/c/d", kind: .video), listing: StoreListing()),
        ]
            + ratings.enumerated().map { index, rating in
                Item(
                    id: ItemID(source: .itunes, nativeID: "r\(index)"), kind: .app, title: "A",
                    listing: StoreListing(rating: rating, screenshots: []))
            }
    }

    @Test func sectionsMatchFoundation() throws {
        let bare = Item(id: ItemID(source: .itunes, nativeID: "1"), kind: .song, title: "")
        var unknown = bare
        unknown.license = Licenses.unknown(name: "Own terms\n")
        let sections = [
            SectionResult(id: .music, items: storeItems, total: nil, hasMore: false),
            SectionResult(id: .wikimedia, items: [awkwardItem, bare, unknown], total: nil, hasMore: true),
            SectionResult(id: .books, items: [], total: 0, hasMore: false),
            SectionResult.failed(.flickr, .rateLimited(.flickr, retryAfter: 3)),
        ]
        for section in sections {
            #expect(String(decoding: JSONBody.encode(section), as: UTF8.self) == (try foundation(section)))
        }
    }

    @Test func wholeResponseMatchesFoundation() throws {
        let response = SearchResponse(
            query: #"cats "and" dogs / é"#, scope: "all", page: 3,
            sections: [
                SectionResult(id: .pixabay, items: [awkwardItem], total: 1, hasMore: false),
                SectionResult.failed(.flickr, .timeout(.flickr, seconds: 8)),
            ])
        #expect(String(decoding: JSONBody.encode(response), as: UTF8.self) == (try foundation(response)))
        // With its groups (as /api/search answers): the same bytes, `groups` first.
        var grouped = response
        grouped.groups = [
            SearchResponse.Group(
                items: [awkwardItem.id, ItemID(source: .openverse, nativeID: "a/b")], representative: awkwardItem.id)
        ]
        let bytes = String(decoding: JSONBody.encode(grouped), as: UTF8.self)
        #expect(bytes == (try foundation(grouped)))
        #expect(bytes.hasPrefix(#"{"groups":[{"items":["#))
        grouped.groups = []
        #expect(String(decoding: JSONBody.encode(grouped), as: UTF8.self) == (try foundation(grouped)))
    }
}
