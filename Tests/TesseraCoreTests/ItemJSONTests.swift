import Foundation
import Testing

@testable import TesseraCore

/// Items as galleries store them: written by `JSONEncoder`, read back by `FastJSONDecoder`, with the preview
/// and the store listing, and as items stored before those fields existed.
@Suite struct ItemJSONTests {
    @Test func previewsAndListingsSurviveTheFastDecoder() throws {
        let item = Item(
            id: ItemID(source: .itunes, nativeID: "5"), kind: .app, title: "App",
            mediaPreview: MediaPreview(url: "/media/a/b", kind: .video),
            listing: StoreListing(
                price: "Free", rating: 4.53571, ratingCount: 12, description: "Line \"one\"",
                screenshots: [ImageRef(url: "/img/preview/s/1", width: 392, height: 696)]))
        let data = try JSONEncoder().encode(item)
        let fast = try FastJSONDecoder.decode(Item.self, from: data)
        #expect(fast == item)
        #expect(fast == (try JSONDecoder().decode(Item.self, from: data)))
    }

    @Test func anItemStoredBeforeThoseFieldsStillReads() throws {
        let stored = Data(
            #"{"id":"itunes:1","source":"itunes","kind":"song","title":"S","tags":[],"sizes":[],"metadata":[]}"#.utf8)
        let item = try FastJSONDecoder.decode(Item.self, from: stored)
        #expect(item.mediaPreview == nil && item.listing == nil)
        let fields = #"{"id":"itunes:1","source":"itunes","kind":"song","title":"S","tags":[],"sizes":[],"#
        let unknownKind = Data((fields + #""metadata":[],"mediaPreview":{"url":"/m/a","kind":"hologram"}}"#).utf8)
        #expect(throws: (any Error).self) { try FastJSONDecoder.decode(Item.self, from: unknownKind) }
    }
}
