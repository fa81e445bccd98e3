import TesseraCore
import Testing

@testable import TesseraGalleries

/// The rules an added item's preview and listing keep, held to docs/openapi.yaml's patterns, which read a URL
/// by code points: `^/img/[^/]*/[^/]*/[^/]*$`, `^/media/[^/]*/[^/]*$`.
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
    }

    @Test func previewsAreMediaAddresses() {
        #expect(
            GalleryService.problem(mediaPreview: MediaPreview(url: "/media/s/\u{0301}x", kind: .audio), listing: nil)
                == nil)
        #expect(GalleryService.problem(mediaPreview: MediaPreview(url: "/img/s/x", kind: .audio), listing: nil) != nil)
    }
}
