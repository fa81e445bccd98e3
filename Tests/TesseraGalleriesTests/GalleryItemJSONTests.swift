import Foundation
import TesseraCore
import Testing

@testable import TesseraGalleries

/// An add writes its item (the stored JSON) and answers with the gallery item through `FastJSON`: the bytes
/// must be exactly `JSONEncoder`'s with sorted keys and unescaped slashes, which every other answer uses.
@Suite struct GalleryItemJSONTests {
    private func foundation(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private var item: Item {
        var item = Item(
            id: ItemID(source: .flickr, nativeID: "5 \"q\""), kind: .image,
            title: "Fox / “night” \\ 🦊 \u{1}\t\n", tags: ["fox", "ß"],
            creator: Creator(name: "Ada", url: "https://example.com/ada"),
            license: Licenses.unknown(name: "Own terms"), pageURL: "https://example.com/p?a=1&b=2",
            sizes: [ImageSize(name: "large", url: "/img/original/a/b", width: 1024)],
            metadata: [MetadataEntry("Camera", "X\r\nY")])
        item.thumbnail = ImageRef(url: "/img/thumb/s/t", width: 150, height: 100)
        item.full = ImageRef(url: "/img/original/s/t")
        item.listing = StoreListing(price: "Free", rating: 4.5, screenshots: [])
        return item
    }

    private func galleryItem(sourceURL: String?) -> GalleryItem {
        let refs = StoredImageRefs(
            thumbnail: ImageRef(url: "/img/thumb/sig/stored%3Aab", width: 300, height: 200),
            preview: ImageRef(url: "/img/preview/sig/stored%3Aab", width: 1200, height: 800),
            original: ImageRef(url: "/img/original/sig/stored%3Aab", width: 3000, height: 2000))
        return GalleryItem(
            id: GalleryItemID.random(), item: item, sourceURL: sourceURL, size: 123_456, image: refs,
            addedAt: "2026-11-25T01:02:03.456Z")
    }

    @Test func storedItemTextIsJSONEncoders() throws {
        let bare = Item(id: ItemID(source: .itunes, nativeID: "1"), kind: .song, title: "")
        for item in [item, bare] {
            #expect(FastJSON.text(of: item) == (try foundation(item)))
        }
    }

    @Test(arguments: [nil, "https://example.com/p?x=\"1\"/é"])
    func answerIsJSONEncoders(sourceURL: String?) throws {
        let value = galleryItem(sourceURL: sourceURL)
        var json = FastJSON()
        json.galleryItem(value)
        #expect(String(decoding: json.bytes, as: UTF8.self) == (try foundation(value)))
    }
}
