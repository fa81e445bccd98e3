import Foundation
import TesseraClient
import TesseraTestSupport
import Testing

/// Search, the section stream, sources, items and image bytes through `TesseraClient`, against the real app.
@Suite("TesseraClient: search and images")
struct SearchClientTests {
    @Test func searchAnswersEverySectionInDisplayOrder() async throws {
        try await withServer { client, _ in
            let results = try await client.search("  red fox ")
            #expect(results.query == "red fox" && results.scope == .all && results.page == 1)
            #expect(
                results.sections.map(\.id) == [
                    .pixabay, .flickr, .openverse, .wikimedia, .movies, .music, .apps, .books,
                ])
            for section in results.sections {
                #expect(section.error == nil && section.items.count == 20 && section.hasMore, "\(section.id)")
            }
            // The stores' items carry their preview (signed for /media) and listing through the client.
            let music = try #require(results.sections.first { $0.id == .music }?.items.first)
            #expect(music.mediaPreview?.kind == "audio" && music.mediaPreview?.url.hasPrefix("/media/") == true)
            let app = try #require(results.sections.first { $0.id == .apps }?.items.first)
            #expect(app.listing?.rating != nil && app.listing?.screenshots?.count == 3)
            #expect(app.listing?.screenshots?.allSatisfy { $0.url.hasPrefix("/img/preview/") } == true)
            let page2 = try await client.search("red fox", scope: .pixabay, page: 2)
            #expect(page2.sections.map(\.id) == [.pixabay] && page2.page == 2)
            #expect(Set(page2.sections[0].items.map(\.id)).isDisjoint(with: results.sections[0].items.map(\.id)))
        }
    }

    @Test func theStreamYieldsEverySectionOnceAndEnds() async throws {
        try await withServer { client, _ in
            let whole = try await client.search("red fox")
            var streamed: [Section] = []
            for try await section in try await client.searchSections("red fox") {
                streamed.append(section)
            }
            #expect(streamed.count == whole.sections.count)
            #expect(Set(streamed.map(\.id)) == Set(whole.sections.map(\.id)))
            for section in streamed {
                let same = try #require(whole.sections.first { $0.id == section.id })
                #expect(section.items.map(\.id) == same.items.map(\.id), "\(section.id)")
            }
        }
    }

    @Test func aFailedSourceKeepsItsSectionWithTheReason() async throws {
        try await withServer { client, standIns in
            let flickr = try #require(standIns.providers.first { $0 is FlickrStandIn } as? FlickrStandIn)
            flickr.state.behavior = .serverError
            let results = try await client.search("red fox")
            let section = try #require(results.sections.first { $0.id == .flickr })
            #expect(section.items.isEmpty && section.error != nil)
        }
    }

    @Test func badInputIsABadRequestWithTheServersMessage() async throws {
        try await withServer { client, _ in
            let error = await clientError { () async throws(TesseraClientError) in try await client.search("   ") }
            guard case .badRequest(400, "invalid_query", let message) = error else {
                Issue.record("expected a 400 invalid_query, got \(String(describing: error))")
                return
            }
            #expect(!message.isEmpty)
            let page = await clientError { () async throws(TesseraClientError) in
                try await client.search("fox", page: 0)
            }
            guard case .badRequest(400, "invalid_page", _) = page else {
                Issue.record("expected a 400 invalid_page, got \(String(describing: page))")
                return
            }
            let stream = await clientError { () async throws(TesseraClientError) in
                try await client.searchSections("", scope: .local)
            }
            guard case .badRequest(400, _, _) = stream else {
                Issue.record("expected a 400 for the stream, got \(String(describing: stream))")
                return
            }
        }
    }

    @Test func sourcesAndOneItem() async throws {
        try await withServer { client, _ in
            let sources = try await client.sources()
            #expect(sources.contains { $0.id == "pixabay" && $0.enabled })
            #expect(sources.contains { $0.id == "itunes" && $0.sections == ["movies", "music", "apps", "books"] })
            let first = try #require(try await client.search("fox", scope: .pixabay).sections.first?.items.first)
            let item = try await client.item(first.id)
            #expect(item.id == first.id && item.title == first.title)
            let missing = await clientError { () async throws(TesseraClientError) in
                try await client.item("pixabay:999999999")
            }
            guard case .notFound = missing else {
                Issue.record("expected not found, got \(String(describing: missing))")
                return
            }
        }
    }

    @Test func anImageDownloadsAsTheBytesTheProxyServes() async throws {
        try await withServer { client, _ in
            let item = try #require(try await client.search("fox", scope: .pixabay).sections.first?.items.first)
            let full = try #require(item.full)
            let image = try await client.image(full)
            #expect(image.contentType == "image/jpeg")
            #expect(Array(image.data) == StandInImage.jpeg, "the original variant is the bytes as fetched")
            let thumbnail = try await client.image(try #require(item.thumbnail))
            #expect(thumbnail.data.starts(with: [0xFF, 0xD8, 0xFF]) || thumbnail.contentType == "image/webp")

            // A signature this server did not make is refused without fetching.
            var parts = full.url.split(separator: "/").map(String.init)
            parts[2] = String(parts[2].reversed())
            let forged = await clientError { () async throws(TesseraClientError) in
                try await client.image(at: "/" + parts.joined(separator: "/"))
            }
            guard case .badRequest(403, _, _) = forged else {
                Issue.record("expected a 403, got \(String(describing: forged))")
                return
            }
            let notOurs = await clientError { () async throws(TesseraClientError) in
                try await client.image(at: "https://example.com/cat.jpg")
            }
            #expect(notOurs == .invalidImageURL("https://example.com/cat.jpg"))
        }
    }
}
