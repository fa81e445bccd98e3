import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// `GET /api/galleries/{id}/credits` over real HTTP: every item's credit in order, its licence, the warnings,
/// and the text, HTML and Markdown forms (docs/licences.md, "Credits").
@Suite("Gallery credits over HTTP")
struct GalleryCreditsAPITests {
    typealias API = GalleriesAPITests

    struct Body: Decodable {
        struct Entry: Decodable {
            let id: String
            let index: Int
            let source: String
            let title: String
            let license: License
            let text, html, markdown, xml: String
        }
        struct Warning: Decodable {
            let code: String
            let message: String
            let itemIds: [String]
        }
        let name: String
        let revision: Int
        let items: [Entry]
        let warnings: [Warning]
    }

    /// Three search results as a client would send them: as found, one re-licensed non-commercial with
    /// markup in its title, one with no licence at all.
    static func items(_ client: any TestClientProtocol) async throws -> [Item] {
        let search = try await client.execute(uri: "/api/search?q=fox&scope=pixabay", method: .get)
            .json(SearchResponse.self)
        let found = try #require(search.sections.first?.items)
        try #require(found.count >= 3)
        var (free, restricted, unknown) = (found[0], found[1], found[2])
        free.creator = Creator(name: "Ann & Bo")
        restricted.title = "Fox & <b>hen</b>"
        restricted.license = Licenses.flickr(id: "2")
        unknown.license = nil
        return [free, restricted, unknown]
    }

    @Test func theCreditsListEveryItemInOrderWithWarnings() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await API.create(client, "Book <cover>")
            let items = try await Self.items(client)
            for item in items { try await API.add(client, gallery.id, json: try API.itemJSON(item)) }
            let ids = try await API.gallery(client, gallery.id).items?.map(\.id.rawValue) ?? []

            let response = try await client.execute(uri: "/api/galleries/\(gallery.id)/credits", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            let credits = try response.json(Body.self)
            #expect(response.headers[.eTag] == "\"\(credits.revision)\"")
            #expect(credits.name == "Book <cover>")
            #expect(credits.items.map(\.id) == ids)
            #expect(credits.items.map(\.index) == [0, 1, 2])
            #expect(credits.items.map(\.license.id) == ["pixabay", "cc-by-nc-2.0", "unknown"])
            #expect(credits.items.map(\.text) == items.map { Attribution(item: $0).text })
            #expect(
                credits.items[0].text.hasPrefix(
                    "“\(items[0].title)” by Ann & Bo is licensed under the Pixabay Content License"))
            #expect(credits.items[0].text.hasSuffix("Source: Pixabay, \(items[0].pageURL ?? "")"))
            #expect(credits.items[2].text.contains("is under an unknown licence: ask the creator before any reuse."))
            #expect(credits.items[1].html.contains("Fox &amp; &lt;b&gt;hen&lt;/b&gt;"))
            #expect(credits.items[1].xml.contains("<license id=\"cc-by-nc-2.0\""))

            #expect(credits.warnings.map(\.code) == ["not_commercial", "unknown_license"])
            #expect(credits.warnings.map(\.itemIds) == [[ids[1]], [ids[2]]])
            #expect(credits.warnings[0].message == "1 of 3 items may not be used commercially: #2 “Fox & <b>hen</b>”.")
            #expect(credits.warnings[1].message.contains("#3 “\(items[2].title)”"))
        }
    }

    @Test func theCreditsAsTextHTMLAndMarkdown() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await API.create(client, "Book <cover>")
            let items = try await Self.items(client)
            for item in items { try await API.add(client, gallery.id, json: try API.itemJSON(item)) }
            let uri = "/api/galleries/\(gallery.id)/credits?format="

            let text = try await client.execute(uri: uri + "text", method: .get)
            #expect(text.status == .ok)
            #expect(text.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(text.text.hasPrefix("Credits for “Book <cover>”\n\nWarning: 1 of 3 items may not be used"))
            for (index, item) in items.enumerated() {
                #expect(text.text.contains("\n\(index + 1). \(Attribution(item: item).text)\n"))
            }
            #expect(text.text.contains("   CC BY-NC 2.0 (cc-by-nc-2.0): Not for commercial use."))

            let html = try await client.execute(uri: uri + "html", method: .get)
            #expect(html.headers[.contentType] == "text/html; charset=utf-8")
            #expect(html.text.hasPrefix("<!DOCTYPE html>"))
            #expect(html.text.contains("<h1>Credits for “Book &lt;cover&gt;”</h1>"))
            #expect(!html.text.contains("<b>hen") && !html.text.contains("<cover>"), "every value escaped")
            #expect(html.text.components(separatedBy: "<p class=\"attribution\">").count == 4)

            let markdown = try await client.execute(uri: uri + "markdown", method: .get)
            #expect(markdown.headers[.contentType] == "text/markdown; charset=utf-8")
            #expect(markdown.text.contains("\n2. “[Fox \\& \\<b\\>hen\\</b\\>]("))
        }
    }

    @Test func aFormatTheDocumentDoesNotAllowIsRefused() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await API.create(client, "Plain")
            for format in ["xml", "TEXT", "", "json,text", "text%00"] {
                let response = try await client.execute(
                    uri: "/api/galleries/\(gallery.id)/credits?format=\(format)", method: .get)
                #expect(response.status == .badRequest, "format=\(format)")
                #expect(try response.apiError().code == "invalid_parameter")
            }
            let empty = try await client.execute(uri: "/api/galleries/\(gallery.id)/credits?format=text", method: .get)
            #expect(empty.text == "Credits for “Plain”\n\nNo items.\n")
            for id in ["g_aaaaaaaaaaaaaaaaaaaa", "nope"] {
                let missing = try await client.execute(uri: "/api/galleries/\(id)/credits", method: .get)
                #expect(missing.status == .notFound)
                #expect(try missing.apiError().code == "gallery_not_found")
            }
        }
    }
}
