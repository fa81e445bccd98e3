import TesseraCore
import Testing

@Suite struct ImageTests {
    private let sizes = [
        ImageSize(name: "large", url: "https://x/l.jpg", width: 1280, height: 960),
        ImageSize(name: "small", url: "https://x/s.jpg", width: 150, height: 113),
        ImageSize(name: "medium", url: "https://x/m.jpg", width: 640, height: 480),
        ImageSize(name: "unknown", url: "https://x/u.jpg"),
    ]

    @Test func picksTheSmallestRenditionCoveringEachVariant() {
        #expect(ImagePicker.pick(sizes, for: .thumb)?.url == "https://x/m.jpg")
        #expect(ImagePicker.pick(sizes, for: .preview)?.url == "https://x/l.jpg", "nothing covers 1600: the largest")
        #expect(ImagePicker.pick(sizes, for: .original)?.url == "https://x/l.jpg")
        #expect(ImagePicker.pick([], for: .thumb) == nil)
    }

    @Test func fitsWithoutUpscaling() {
        #expect(Geometry.fit(width: 4000, height: 2250, maxSide: 400)! == (400, 225))
        #expect(Geometry.fit(width: 300, height: 200, maxSide: 400)! == (300, 200))
        #expect(Geometry.fit(width: nil, height: 200, maxSide: 400) == nil)
    }

    @Test func linkingRewritesEveryURLAndFitsSizes() {
        struct Prefixer: ImageLinking {
            func link(_ upstreamURL: String, variant: ImageVariant) -> String {
                "/img/\(variant.rawValue)?\(upstreamURL)"
            }
        }
        var item = Item(id: ItemID(source: .pixabay, nativeID: "1"), kind: .image, title: "t", sizes: sizes)
        ImagePicker.assign(&item)
        let linked = item.linkingImages(with: Prefixer())
        #expect(linked.thumbnail == ImageRef(url: "/img/thumb?https://x/m.jpg", width: 400, height: 300))
        #expect(linked.preview == ImageRef(url: "/img/preview?https://x/l.jpg", width: 1280, height: 960))
        #expect(linked.full?.url == "/img/original?https://x/l.jpg")
        #expect(linked.sizes.allSatisfy { $0.url.hasPrefix("/img/original?https://x/") })
        #expect(linked.sizes.map(\.name) == ["unknown", "small", "medium", "large"])
    }

    @Test func aPreviewIsLinkedForTheMediaRouteOrDropped() {
        struct MediaLinker: ImageLinking {
            func link(_ upstreamURL: String, variant: ImageVariant) -> String {
                "/img/\(variant.rawValue)?\(upstreamURL)"
            }
            func linkMedia(_ upstreamURL: String) -> String? { "/media/?\(upstreamURL)" }
        }
        struct ImagesOnly: ImageLinking {
            func link(_ upstreamURL: String, variant: ImageVariant) -> String {
                "/img/\(variant.rawValue)?\(upstreamURL)"
            }
        }
        let item = Item(
            id: ItemID(source: .itunes, nativeID: "1"), kind: .app, title: "t",
            mediaPreview: MediaPreview(url: "https://a/p.m4a", kind: .audio),
            listing: StoreListing(
                price: "Free", screenshots: [ImageRef(url: "https://x/392x696bb.jpg", width: 392, height: 696)]))
        let linked = item.linkingImages(with: MediaLinker())
        #expect(linked.mediaPreview == MediaPreview(url: "/media/?https://a/p.m4a", kind: .audio))
        #expect(
            linked.listing?.screenshots == [
                ImageRef(url: "/img/preview?https://x/392x696bb.jpg", width: 392, height: 696)
            ])
        #expect(linked.listing?.price == "Free")
        let unsigned = item.linkingImages(with: ImagesOnly())
        #expect(unsigned.mediaPreview == nil, "never handed out with the service's own address")
        #expect(unsigned.listing?.screenshots?.first?.url.hasPrefix("/img/preview?") == true)
    }
}
