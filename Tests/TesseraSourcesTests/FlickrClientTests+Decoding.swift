import Foundation
import TesseraCore
import TesseraSources
import Testing

// MARK: - Decoding real-world answers

extension FlickrClientTests {
    /// Shaped after recorded answers (docs/sources.md, "Flickr"): `total` as a string, `farm` an int, sizes and counts
    /// as strings or ints, a photo with no extras at all, and two records without a usable id.
    static let recordedPage = """
        {"photos": {"page": 1, "pages": 12, "perpage": 20, "total": "234",
          "photo": [{
            "id": "2448337677", "owner": "58722587@N00", "secret": "592a1a3238",
            "server": "2082", "farm": 3, "title": "Agriscruteur &amp; co",
            "ispublic": 1, "isfriend": 0, "isfamily": 0, "license": 4,
            "description": {"_content": "During all the view<br />\\nof the <a href=\\"x\\">balloon</a>"},
            "dateupload": "1209388984",
            "datetaken": "2008-04-26 21:06:26", "datetakengranularity": "6", "datetakenunknown": 0,
            "ownername": "mmarsupilami", "tags": "10faves balloon Balloon", "views": "196",
            "o_width": "1200", "o_height": 900, "pathalias": "", "media": "photo", "media_status": "ready",
            "some_new_key": {"nested": [1, 2]},
            "url_q": "https://live.staticflickr.com/2082/2448337677_592a1a3238_q.jpg",
            "height_q": 150, "width_q": "150",
            "url_l": "https://live.staticflickr.com/2082/2448337677_592a1a3238_b.jpg",
            "height_l": "899", "width_l": "1024"
          }, {
            "id": "2448337000", "owner": "12037949754@N01", "secret": "0a1b2c3d4e", "server": "65535",
            "farm": 66, "title": "", "ispublic": 1, "isfriend": 0, "isfamily": 0
          }, {"owner": "nobody", "title": "no id"},
          {"id": {"unexpected": true}, "title": "odd id"}]},
         "stat": "ok"}
        """

    @Test func decodesARecordedAnswer() throws {
        let page = try FlickrClient.searchPage(fromJSON: Data(Self.recordedPage.utf8), page: 1)
        #expect(page.total == 234)
        #expect(page.hasMore)
        #expect(page.items.map(\.id.nativeID) == ["2448337677", "2448337000"], "records without an id are skipped")

        let full = page.items[0]
        #expect(full.title == "Agriscruteur & co")
        #expect(full.tags == ["10faves", "balloon"])
        #expect(full.creator == Creator(name: "mmarsupilami", url: "https://www.flickr.com/photos/58722587@N00/"))
        #expect(full.license?.name == "Attribution License")
        #expect(full.pageURL == "https://www.flickr.com/photos/58722587@N00/2448337677")
        #expect(full.sizes.map(\.name) == ["url_q", "url_l"])
        #expect(full.sizes.map(\.width) == [150, 1024])
        #expect(full.sizes.map(\.height) == [150, 899])
        #expect(
            full.metadata == [
                MetadataEntry("Description", "During all the view of the balloon"),
                MetadataEntry("Date taken", "2008"),
                MetadataEntry("Date uploaded", "2008-04-28T13:23:04Z"),
                MetadataEntry("Views", "196"),
                MetadataEntry("Original size", "1200 × 900"),
                MetadataEntry("Licence ID", "4"),
                MetadataEntry("Media", "photo"),
                MetadataEntry("Owner ID", "58722587@N00"),
                MetadataEntry("Tags", "10faves, balloon"),
            ])

        let bare = page.items[1]
        #expect(bare.title == "Untitled")
        #expect(bare.creator == Creator(name: "12037949754@N01", url: "https://www.flickr.com/photos/12037949754@N01/"))
        #expect(bare.license?.id == .unknown)
        #expect(bare.tags.isEmpty)
        #expect(bare.sizes.first?.url == "https://live.staticflickr.com/65535/2448337000_0a1b2c3d4e_q.jpg")
        #expect(bare.sizes.count == 4, "built from server and secret when no url_X came")
        #expect(bare.metadata == [MetadataEntry("Owner ID", "12037949754@N01")])
    }

    @Test func readsTotalAsAnIntAndStopsAtTheCap() throws {
        func page(_ number: Int) -> String {
            #"{"photos":{"page":\#(number),"pages":1960,"perpage":20,"total":39182,"photo":[]},"stat":"ok"}"#
        }
        let early = try FlickrClient.searchPage(fromJSON: Data(page(199).utf8), page: 199)
        #expect(early.total == 39182)
        #expect(early.hasMore)
        let last = try FlickrClient.searchPage(fromJSON: Data(page(200).utf8), page: 200)
        #expect(!last.hasMore)
        let empty = #"{"photos":{"page":1,"pages":0,"perpage":100,"total":0,"photo":[]},"stat":"ok"}"#
        #expect(
            try FlickrClient.searchPage(fromJSON: Data(empty.utf8), page: 1)
                == SourcePage(items: [], total: 0, hasMore: false))
    }
}
