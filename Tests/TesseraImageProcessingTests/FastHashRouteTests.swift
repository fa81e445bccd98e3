import CVips
import Foundation
import TesseraCore
import Testing

@testable import TesseraImageProcessing

/// The fast route (`PerceptualHashing.Route.fast`: the loader's shrink, one read, Tessera's resampling) against
/// the route it replaced (`vips_thumbnail` to 32×32, libvips' grey), which stays for other formats.
@Suite("Perceptual hashes: the fast route")
struct FastHashRouteTests {
    /// How far the two routes may put one image: the sample photos measured 2 bits at most (docs/duplicates.md).
    static let routeShift = 4

    @Test func everySamplePhotoAndItsThumbnailsHashAsTheOldRouteDid() async throws {
        let processor = ImageProcessor(concurrency: 1)
        var shifts: [Int] = []
        for photo in try PictureCopies.samplePhotos() {
            let original = try Data(contentsOf: photo)
            var images = [original]
            for webP in [false, true] {
                images.append(try await processor.thumbnail(of: original, maxSide: 400, allowWebP: webP).data)
            }
            for image in images {
                for method in PerceptualHashing.Method.allCases {
                    let fast = try PerceptualHashing.hash(of: image, method: method, route: .fast)
                    let old = try PerceptualHashing.hash(of: image, method: method, route: .thumbnail)
                    shifts.append(fast.distance(to: old))
                }
            }
        }
        #expect(shifts.count == 36)
        #expect(shifts.max()! <= Self.routeShift, "\(shifts)")
    }

    @Test func transparencyInAWebPIsFlattenedOntoWhite() throws {
        let clear = try TestImage.flat(width: 640, height: 480, bands: 3, value: 0).derived {
            tessera_fixture_with_alpha($0, 0)
        }
        let white = try TestImage.flat(width: 640, height: 480, bands: 3, value: 255)
        let cutout = try TestImage.photo(width: 640, height: 480).cutout(opaque: 0.5)
        #expect(
            try PerceptualHashing.hash(of: clear.webp(lossless: true), route: .fast)
                == PerceptualHashing.hash(of: white.webp(lossless: true), route: .fast))
        let (fast, old) = (
            try PerceptualHashing.hash(of: cutout.webp(lossless: true), route: .fast),
            try PerceptualHashing.hash(of: cutout.webp(lossless: true), route: .thumbnail)
        )
        #expect(fast.distance(to: old) <= Self.routeShift, "half a photo on white, as libvips flattens it")
    }

    @Test func theEXIFOrientationIsApplied() throws {
        let photo = try TestImage.photo(width: 800, height: 500)
        let upright = try PerceptualHashing.hash(of: photo.jpeg(), route: .fast)
        for orientation in [3, 6, 8] {
            // The same pixels, to be turned when shown: a turned picture is another picture.
            let tagged = photo.with(orientation: orientation).jpeg()
            let fast = try PerceptualHashing.hash(of: tagged, route: .fast)
            let old = try PerceptualHashing.hash(of: tagged, route: .thumbnail)
            // This fixture's noise moves more bits than a photo's (PerceptualHashTests): one picture, not 4 bits.
            #expect(
                fast.distance(to: old) <= PictureGrouping.threshold,
                "orientation \(orientation): turned as libvips turns it, \(fast.distance(to: old)) bits apart")
            #expect(fast.distance(to: upright) > PictureGrouping.threshold, "orientation \(orientation)")
        }
    }

    @Test func formatsTheFastRouteDoesNotTakeHashAsBefore() throws {
        let photo = try TestImage.photo(width: 640, height: 480)
        let cmyk = try TestImage.flat(
            width: 600, height: 400, bands: 4, value: 40, interpretation: VIPS_INTERPRETATION_CMYK
        ).jpeg()
        for (name, image) in [("PNG", photo.png()), ("GIF", photo.gif()), ("CMYK JPEG", cmyk)] {
            #expect(
                try PerceptualHashing.hash(of: image, route: .fast)
                    == PerceptualHashing.hash(of: image, route: .thumbnail), "\(name)")
        }
        #expect(throws: ImagingError.self) { try PerceptualHashing.hash(of: Data(photo.jpeg().prefix(400))) }
        #expect(throws: ImagingError.self) { try PerceptualHashing.hash(of: Data(photo.webp().prefix(400))) }
    }

    @Test func aLargeJPEGTakesTheFastRouteThroughTheProcessor() async throws {
        // A gallery's stored copy: the processor checks the header, then hashes as thumbnails are hashed.
        let sample = try #require(try PictureCopies.samplePhotos().first)
        let photo = try PictureCopies.decoded(try Data(contentsOf: sample))
        let scale = 4000 / Double(vips_image_get_width(photo.pointer))
        let large = photo.derived { tessera_fixture_resize($0, scale) }.jpeg()
        let processor = ImageProcessor(concurrency: 1)
        let hash = try await processor.perceptualHash(of: large)
        #expect(hash == (try PerceptualHashing.hash(of: large, route: .fast)))
        let old = try PerceptualHashing.hash(of: large, route: .thumbnail)
        #expect(hash.distance(to: old) <= Self.routeShift, "\(hash.distance(to: old)) bits apart")
    }
}
