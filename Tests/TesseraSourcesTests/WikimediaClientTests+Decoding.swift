import Foundation
import TesseraCore
import Testing

@testable import TesseraSources

// MARK: - Decoding real answers

extension WikimediaClientTests {
    /// formatversion 1 as Commons sends it for page 2 of a search: pages keyed by id in no order,
    /// `""` flags, a numeric `CommonsMetadataExtension`, `extmetadata: []`, and a page without a file.
    static let versionOneAnswer = #"""
        {"batchcomplete":"","continue":{"gsroffset":40,"continue":"gsroffset||"},"query":{"pages":{
         "118200761":{"pageid":118200761,"ns":6,"title":"File:Grey heron (Ardea cinerea) at dusk, Camargue.jpg",
          "index":22,"imagerepository":"local","imageinfo":[{"size":4812215,"width":5472,"height":3648,
          "thumburl":"https://upload.wikimedia.org/wikipedia/commons/thumb/3/3c/Grey_heron.jpg/400px-Grey_heron.jpg",
          "thumbwidth":400,"thumbheight":267,
          "url":"https://upload.wikimedia.org/wikipedia/commons/3/3c/Grey_heron.jpg",
          "descriptionurl":"https://commons.wikimedia.org/wiki/File:Grey_heron_(Ardea_cinerea)_at_dusk,_Camargue.jpg",
          "descriptionshorturl":"https://commons.wikimedia.org/w/index.php?curid=118200761","mime":"image/jpeg",
          "extmetadata":{
           "DateTime":{"value":"2022-04-18 19:02:11","source":"mediawiki-metadata","hidden":""},
           "ObjectName":{"value":"Grey heron (Ardea cinerea) at dusk, Camargue","source":"mediawiki-metadata",
            "hidden":""},
           "CommonsMetadataExtension":{"value":1.2,"source":"extension","hidden":""},
           "Categories":{
            "value":"Ardea cinerea in France|Birds of the Camargue|Self-published work|Ardea cinerea in France",
            "source":"commons-categories","hidden":""},
           "ImageDescription":{"value":"<div class=\"description en\" lang=\"en\">\#
        <span class=\"language en\"><b>English:</b></span> A grey heron in the shallows at dusk &amp; calm.</div>",
            "source":"commons-desc-page"},
           "DateTimeOriginal":{"value":"2022-04-17 20:41","source":"commons-desc-page"},
           "Credit":{"value":"<span class=\"int-own-work\" lang=\"en\">Own work</span>","source":"commons-desc-page",
            "hidden":""},
           "Artist":{"value":"Marie Dupont <a rel=\"nofollow\" class=\"external autonumber\" \#
        href=\"https://www.flickr.com/photos/mdupont/\">[1]</a>","source":"commons-desc-page"},
           "LicenseShortName":{"value":"CC BY-SA 4.0","source":"commons-desc-page","hidden":""},
           "UsageTerms":{"value":"Creative Commons Attribution-Share Alike 4.0","source":"commons-desc-page",
            "hidden":""},
           "AttributionRequired":{"value":"true","source":"commons-desc-page","hidden":""},
           "LicenseUrl":{"value":"https://creativecommons.org/licenses/by-sa/4.0","source":"commons-desc-page",
            "hidden":""},
           "Copyrighted":{"value":"True","source":"commons-desc-page","hidden":""},
           "License":{"value":"cc-by-sa-4.0","source":"commons-templates","hidden":""},
           "Attribution":{"value":"Photo: M. Dupont / <i>Wikimedia Commons</i>","source":"commons-desc-page"}}}]},
         "4242":{"pageid":4242,"ns":6,"title":"File:Broken upload.png","index":23,"imagerepository":""},
         "1503312":{"pageid":1503312,"ns":6,"title":"File:Tabby_cat_on_a_wall.JPG","index":21,"imagerepository":"local",
          "imageinfo":[{"size":98765,"width":300,"height":225,
          "thumburl":"https://upload.wikimedia.org/wikipedia/commons/a/ab/Tabby_cat_on_a_wall.JPG",
          "thumbwidth":300,"thumbheight":225,
          "url":"https://upload.wikimedia.org/wikipedia/commons/a/ab/Tabby_cat_on_a_wall.JPG",
          "descriptionurl":"https://commons.wikimedia.org/wiki/File:Tabby_cat_on_a_wall.JPG",
          "mime":"image/jpeg","extmetadata":[]}]}}}}
        """#

    static let versionTwoAnswer = #"""
        {"batchcomplete":true,"query":{"pages":[
         {"pageid":6,"ns":6,"title":"File:Missing.jpg","missing":true},
         {"pageid":77,"ns":6,"title":"File:Bleu II.svg","index":1,"imagerepository":"local","imageinfo":[{
          "size":"20480","width":1024,"height":768,
          "thumburl":"https://upload.wikimedia.org/wikipedia/commons/thumb/0/0b/Bleu_II.svg/400px-Bleu_II.svg.png",
          "thumbwidth":400,"thumbheight":300,"url":"https://upload.wikimedia.org/wikipedia/commons/0/0b/Bleu_II.svg",
          "descriptionurl":"https://commons.wikimedia.org/wiki/File:Bleu_II.svg","mime":"image/svg+xml",
          "extmetadata":{
           "Artist":{
            "value":"<bdi><a href=\"/wiki/Creator:Joan_Mir%C3%B3\" title=\"Creator:Joan Miró\">Joan Miró</a></bdi>",
            "source":"commons-desc-page"},
           "LicenseShortName":{"value":"Public domain","source":"commons-desc-page","hidden":true},
           "Permission":{"value":"<a href=\"/wiki/Template:PD-old\">PD-old</a> &amp; PD-US",
            "source":"commons-desc-page"},
           "AuthorCount":{"value":1,"source":"commons-desc-page"},
           "Copyrighted":{"value":"False","source":"commons-desc-page","hidden":true},
           "ObjectName":{"value":{"en":"Blue II","fr":"Bleu II"},"source":"mediawiki-metadata"}}}]}]}}
        """#

    private static func decode(_ body: String) throws -> WikimediaWire.Response {
        try WikimediaClient.answer(SourceHTTP.Response(status: 200, headers: [], body: Data(body.utf8)))
    }

    @Test func decodesFormatVersionOneInSearchOrder() throws {
        let page = WikimediaClient.page(try Self.decode(Self.versionOneAnswer), offset: 20)
        #expect(page.items.map(\.id.description) == ["wikimedia:1503312", "wikimedia:118200761"])
        #expect(page.hasMore && page.total == nil)

        let cat = page.items[0]
        #expect(cat.title == "Tabby cat on a wall")
        #expect(cat.creator == nil && cat.license?.id == .unknown && cat.tags.isEmpty)
        #expect(cat.thumbnail?.url == "https://upload.wikimedia.org/wikipedia/commons/a/ab/Tabby_cat_on_a_wall.JPG")

        let heron = page.items[1]
        #expect(heron.title == "Grey heron (Ardea cinerea) at dusk, Camargue")
        #expect(heron.tags == ["ardea cinerea in france", "birds of the camargue", "self-published work"])
        #expect(heron.creator == Creator(name: "Marie Dupont [1]", url: "https://www.flickr.com/photos/mdupont/"))
        #expect(heron.license == License(name: "CC BY-SA 4.0", url: "https://creativecommons.org/licenses/by-sa/4.0"))
        #expect(heron.pageURL?.hasSuffix("/wiki/File:Grey_heron_(Ardea_cinerea)_at_dusk,_Camargue.jpg") == true)
        #expect(heron.thumbnail?.width == 400 && heron.thumbnail?.height == 267)
        #expect(heron.preview?.width == 5472 && heron.full?.url.hasSuffix("/3c/Grey_heron.jpg") == true)
        #expect(
            heron.metadata == [
                MetadataEntry("Description", "English: A grey heron in the shallows at dusk & calm."),
                MetadataEntry("Credit", "Own work"),
                MetadataEntry("Date", "2022-04-17 20:41"),
                MetadataEntry("Usage terms", "Creative Commons Attribution-Share Alike 4.0"),
                MetadataEntry("Attribution required", "yes"),
                MetadataEntry("MIME type", "image/jpeg"),
                MetadataEntry("File size", "4.8 MB"),
                MetadataEntry("Original size", "5472 × 3648"),
                MetadataEntry("Short URL", "https://commons.wikimedia.org/w/index.php?curid=118200761"),
                MetadataEntry("Attribution", "Photo: M. Dupont / Wikimedia Commons"),
            ])
    }

    @Test func decodesFormatVersionTwoWithBooleansAndOddValues() throws {
        let page = WikimediaClient.page(try Self.decode(Self.versionTwoAnswer), offset: 0)
        #expect(page.items.count == 1, "the missing page is left out")
        #expect(!page.hasMore)
        let bleu = try #require(page.items.first)
        #expect(bleu.title == "Bleu II", "a multilingual ObjectName reads as none: the file name stands in")
        let creatorPage = "https://commons.wikimedia.org/wiki/Creator:Joan_Mir%C3%B3"
        #expect(bleu.creator == Creator(name: "Joan Miró", url: creatorPage), "a site-relative link resolves")
        #expect(bleu.license == License(name: "Public domain", url: nil))
        #expect(bleu.metadata.contains(MetadataEntry("File size", "20 KB")))
        // An SVG is shown through the PNG Commons renders of it, never fetched as is.
        let rendition = "https://upload.wikimedia.org/wikipedia/commons/thumb/0/0b/Bleu_II.svg/1280px-Bleu_II.svg.png"
        #expect(bleu.sizes.map(\.name) == ["thumb", "rendition"])
        #expect(bleu.full == ImageRef(url: rendition, width: 1280, height: 960))
        #expect(bleu.preview?.url == rendition)
        #expect(bleu.thumbnail?.url.hasSuffix("/400px-Bleu_II.svg.png") == true)
        #expect(
            bleu.metadata.suffix(2) == [
                MetadataEntry("Author count", "1"), MetadataEntry("Permission", "PD-old & PD-US"),
            ])
    }

    @Test func renditionsOnlyForWhatBrowsersCannotShow() throws {
        func info(_ mime: String, width: Int) throws -> WikimediaWire.ImageInfo {
            try JSONDecoder().decode(
                WikimediaWire.ImageInfo.self,
                from: Data(
                    """
                    {"width":\(width),"height":\(width / 2),"mime":"\(mime)","thumbwidth":400,"thumbheight":200,
                     "thumburl":"https://upload.wikimedia.org/x/thumb/a/ab/F.tif/400px-F.tif.jpg",
                     "url":"https://upload.wikimedia.org/x/a/ab/F.tif"}
                    """.utf8))
        }
        #expect(WikimediaClient.rendition(try info("image/jpeg", width: 5000)) == nil, "a JPEG is used as it is")
        let tiff = try #require(WikimediaClient.rendition(try info("image/tiff", width: 5000)))
        #expect(tiff.url == "https://upload.wikimedia.org/x/thumb/a/ab/F.tif/1280px-F.tif.jpg")
        #expect(tiff.width == 1280 && tiff.height == 640)
        let small = try #require(WikimediaClient.rendition(try info("image/tiff", width: 900)))
        #expect(small.width == 900, "a bitmap is not asked wider than it is")
        #expect(WikimediaClient.rendition(try info("image/tiff", width: 300)) == nil, "the thumbnail is all there is")
    }

    @Test func emptyAnswersAndErrorsDecode() throws {
        #expect(
            WikimediaClient.page(try Self.decode(#"{"batchcomplete":true}"#), offset: 0)
                == SourcePage(
                    items: [], total: nil, hasMore: false))
        #expect(WikimediaClient.page(try Self.decode(#"{"batchcomplete":""}"#), offset: 0).items.isEmpty)
        let maxlag = #"""
            {"error":{"code":"maxlag","info":"Waiting for 10.64.48.35: 0.88 seconds lagged.","host":"10.64.48.35",
            "lag":0.88,"type":"db","*":"See https://commons.wikimedia.org/w/api.php for API usage."},
            "servedby":"mw1404"}
            """#
        let lag = "Waiting for 10.64.48.35: 0.88 seconds lagged."
        #expect(throws: SourceError.serviceError(.wikimedia, status: nil, detail: lag)) {
            try Self.decode(maxlag)
        }
        #expect(throws: SourceError.rejected(.wikimedia, detail: "HTTP 403")) {
            try WikimediaClient.answer(SourceHTTP.Response(status: 403, headers: [], body: Data("Forbidden".utf8)))
        }
    }

    @Test func titlesAndLabels() {
        #expect(WikimediaClient.title(fromPage: "File:Tour_Eiffel.jpg") == "Tour Eiffel")
        #expect(WikimediaClient.title(fromPage: "File:1.2.09.Forest.cSmall.jpg") == "1.2.09.Forest.cSmall")
        #expect(WikimediaClient.title(fromPage: "File:Version 2.0 release notes") == "Version 2.0 release notes")
        #expect(["GPSLatitude", "DateTime"].map(WikimediaClient.label) == ["GPS latitude", "Date time"])
    }
}
