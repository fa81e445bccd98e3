import Foundation
import Testing

@testable import TesseraGalleries

/// Gallery and item ids: parsed once where they come in, written in JSON as their plain string.
@Suite("Gallery ids")
struct GalleryIDTests {
    @Test func onlyOurOwnShapeParses() {
        #expect(GalleryID("g_abcdefghijklmnopqrst")?.rawValue == "g_abcdefghijklmnopqrst")
        #expect(GalleryItemID("gi_234567abcdefghijklmn") != nil)
        let refused = [
            "", "g_", "g_nope", "g_ABCDEFGHIJKLMNOPQRST", "g_abcdefghijklmnopqrs1", "gi_abcdefghijklmnopqrst",
            "g_abcdefghijklmnopqrstu", " g_abcdefghijklmnopqrst",
        ]
        for text in refused { #expect(GalleryID(text) == nil, "\(text)") }
        #expect(GalleryItemID("g_abcdefghijklmnopqrst") == nil, "a gallery id is not an item id")
    }

    @Test func newIdsAreRandomAndParseBack() {
        let ids = (0..<100).map { _ in GalleryID.random() }
        #expect(Set(ids).count == 100)
        #expect(ids.allSatisfy { GalleryID($0.rawValue) == $0 })
        let item = GalleryItemID.random()
        #expect(item.rawValue.hasPrefix("gi_") && GalleryItemID(item.description) == item)
    }

    @Test func jsonHoldsThePlainStringAndRefusesOthers() throws {
        struct Holder: Codable, Equatable { var id: GalleryID }
        let holder = Holder(id: try #require(GalleryID("g_abcdefghijklmnopqrst")))
        let json = String(decoding: try JSONEncoder().encode(holder), as: UTF8.self)
        #expect(json == #"{"id":"g_abcdefghijklmnopqrst"}"#)
        #expect(try JSONDecoder().decode(Holder.self, from: Data(json.utf8)) == holder)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Holder.self, from: Data(#"{"id":"g_nope"}"#.utf8))
        }
    }
}
