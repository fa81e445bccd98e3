import Testing

@testable import TesseraCore

/// What a gallery keeps of a search result, named by reference for a trusted caller (`Item.largestImage`).
@Suite("An item's largest image")
struct LargestImageTests {
    private func item(thumbnail: String? = nil, preview: String? = nil, full: String? = nil) -> Item {
        var item = Item(id: ItemID(source: .pixabay, nativeID: "1"), kind: .image, title: "t")
        item.thumbnail = thumbnail.map { ImageRef(url: $0) }
        item.preview = preview.map { ImageRef(url: $0) }
        item.full = full.map { ImageRef(url: $0) }
        return item
    }

    @Test func theFullImageComesFirstThenThePreviewThenTheThumbnail() {
        let all = item(thumbnail: "https://a.test/t.jpg", preview: "https://a.test/p.jpg", full: "https://a.test/f.jpg")
        #expect(all.largestImage == ImageRequest(variant: .original, reference: .web("https://a.test/f.jpg")))
        let noFull = item(thumbnail: "https://a.test/t.jpg", preview: "https://a.test/p.jpg")
        #expect(noFull.largestImage == ImageRequest(variant: .preview, reference: .web("https://a.test/p.jpg")))
        let thumbOnly = item(thumbnail: "https://a.test/t.jpg")
        #expect(thumbOnly.largestImage == ImageRequest(variant: .thumb, reference: .web("https://a.test/t.jpg")))
    }

    @Test func aLibraryPhotoIsNamedAsAFileAndAnItemWithoutImagesHasNone() {
        let photo = item(full: "local:/home/ann/Pictures/sea.jpg?v=3")
        #expect(photo.largestImage?.reference == .library(path: "/home/ann/Pictures/sea.jpg", version: "3"))
        #expect(item().largestImage == nil)
        #expect(item(full: "local:relative.jpg").largestImage == nil, "a library form that names no file")
    }
}
