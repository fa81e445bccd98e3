import TesseraCore
import Testing

@testable import TesseraGalleries

/// The rules an added item's preview and listing keep, held to docs/openapi.yaml's patterns, which read a URL
/// by code points: `^(/s/[A-Za-z0-9_-]{22})?/img/[^/]*/[^/]*/[^/]*$`, `^/media/[^/]*/[^/]*$`.
@Suite struct StoredItemRulesTests {
    private func problem(screenshot url: String) -> String? {
        GalleryService.problem(
            mediaPreview: nil, listing: StoreListing(screenshots: [ImageRef(url: url)]))
    }

    @Test func screenshotsAreImageAddressesCountedAsTheDocumentCounts() {
        #expect(problem(screenshot: "/img/thumb/sig/src") == nil)
        // A "/" followed by a combining mark is one Character in Swift but still a slash to the pattern.
        #expect(problem(screenshot: "/img/a/\u{0301}b/c") == nil)
        #expect(problem(screenshot: "/img//\u{00e7}.B/") == nil)
        #expect(problem(screenshot: "/img/a/b") != nil)
        #expect(problem(screenshot: "/img/a/b/c/d") != nil)
        #expect(problem(screenshot: "/media/a/b/c") != nil)
        // The document's Image also allows a shared link's copy, /s/{22-character slug}/img/….
        #expect(problem(screenshot: "/s/0h4C_J_Pl0V-pD0MKWJIG6/img/\u{e6}Fe/\u{4}{]/\u{1F60D}^0") == nil)
        #expect(problem(screenshot: "/s/short/img/a/b/c") != nil)
        #expect(problem(screenshot: "/s/0h4C_J_Pl0V-pD0MKWJIG6/img/a/b") != nil)
        #expect(problem(screenshot: "s/0h4C_J_Pl0V-pD0MKWJIG6/img/a/b/c") != nil)
        #expect(problem(screenshot: "http://example.com/img/a/b/c") != nil)
    }

    @Test func previewsAreMediaAddresses() {
        #expect(
            GalleryService.problem(mediaPreview: MediaPreview(url: "/media/s/\u{0301}x", kind: .audio), listing: nil)
                == nil)
        #expect(GalleryService.problem(mediaPreview: MediaPreview(url: "/img/s/x", kind: .audio), listing: nil) != nil)
    }
}
