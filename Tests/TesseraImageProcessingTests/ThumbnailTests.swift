import CVips
import Foundation
import TesseraCore
import Testing

@testable import TesseraImageProcessing

@Suite("Thumbnails")
struct ThumbnailTests {
    let processor = ImageProcessor(concurrency: 2)

    @Test("A large image is shrunk to fit the box, keeping its aspect ratio")
    func fits() async throws {
        let data = try TestImage.photo(width: 1200, height: 800).jpeg()
        let thumbnail = try await processor.thumbnail(of: data, maxSide: 400, allowWebP: false)
        #expect((thumbnail.width, thumbnail.height) == (400, 267))
        #expect(thumbnail.format == .jpeg)
        let decoded = try Decoded(thumbnail.data)
        #expect(decoded.loader == "jpegload_buffer")
        #expect((decoded.width, decoded.height) == (400, 267))
        // The gradient survives: the result is not a blank or black image.
        #expect((60...200).contains(decoded.average))
    }

    @Test("A small image is never enlarged")
    func neverUpscales() async throws {
        let data = try TestImage.photo(width: 100, height: 50).png()
        let thumbnail = try await processor.thumbnail(of: data, maxSide: 400, allowWebP: false)
        #expect((thumbnail.width, thumbnail.height) == (100, 50))
        #expect(try Decoded(thumbnail.data).width == 100)
    }

    @Test("Every format reads into a thumbnail", arguments: ImageFormat.allCases)
    func everyFormat(format: ImageFormat) async throws {
        let image = try TestImage.photo(width: 600, height: 300)
        let data = image.encoded(as: format)
        let thumbnail = try await processor.thumbnail(of: data, maxSide: 200, allowWebP: false)
        #expect((thumbnail.width, thumbnail.height) == (200, 100))
    }

    @Test("EXIF orientation 6 (rotate 90° clockwise) turns a landscape original into a portrait thumbnail")
    func orientation() async throws {
        let data = try TestImage.photo(width: 1200, height: 800).with(orientation: 6).jpeg()
        let thumbnail = try await processor.thumbnail(of: data, maxSide: 400, allowWebP: false)
        #expect((thumbnail.width, thumbnail.height) == (267, 400))
        let decoded = try Decoded(thumbnail.data)
        #expect((decoded.width, decoded.height) == (267, 400))
        // The pixels are turned, not just labelled: nothing tells a viewer to turn them again.
        #expect(!decoded.fields.contains("orientation"))
    }

    @Test("No EXIF, XMP, IPTC or ICC profile is left in the output", arguments: [false, true])
    func stripsMetadata(allowWebP: Bool) async throws {
        var exif = ExifBlob()
        exif.ifd0[0x013B] = .ascii("Jane Doe")
        var iptc = IPTCBlob()
        iptc.add(25, "secret")  // Keywords
        let original = try TestImage.photo(width: 800, height: 600)
            .with(orientation: 3, exif: exif.bytes, iptc: iptc.bytes, xmp: XMPFixture.packet(title: "Hidden"))
            .jpeg()
        // The fixture really carries the metadata, or this test would prove nothing.
        let before = try Decoded(original)
        #expect(before.fields.isSuperset(of: ["exif-data", "iptc-data", "xmp-data"]))

        // A coarse WebP, so WebP really is chosen when allowed.
        let processor = ImageProcessor(concurrency: 1, jpegQuality: 90, webpQuality: 10)
        let thumbnail = try await processor.thumbnail(of: original, maxSide: 400, allowWebP: allowWebP)
        #expect(thumbnail.format == (allowWebP ? .webp : .jpeg))
        let after = try Decoded(thumbnail.data)
        let metadata = after.fields.filter {
            $0.hasPrefix("exif-") || $0.hasPrefix("iptc-") || $0.hasPrefix("xmp-") || $0.hasPrefix("icc-")
                || $0 == "orientation"
        }
        #expect(metadata.isEmpty)
        #expect(!String(decoding: thumbnail.data, as: UTF8.self).contains("Jane Doe"))
    }

    @Test("A CMYK JPEG comes out as sRGB: no ink is white")
    func cmyk() async throws {
        let original = try TestImage.flat(
            width: 600, height: 400, bands: 4, value: 0, interpretation: VIPS_INTERPRETATION_CMYK
        ).jpeg()
        #expect(try Decoded(original).interpretation == VIPS_INTERPRETATION_CMYK)
        let thumbnail = try await processor.thumbnail(of: original, maxSide: 400, allowWebP: false)
        let decoded = try Decoded(thumbnail.data)
        #expect(decoded.bands == 3)
        #expect(decoded.interpretation == VIPS_INTERPRETATION_sRGB)
        #expect(decoded.average > 245)
    }

    @Test("A 16-bit PNG comes out as 8-bit sRGB with the same tone, not clipped to white")
    func sixteenBit() async throws {
        let original = try TestImage.flat(
            width: 600, height: 400, bands: 3, value: 32768, format: VIPS_FORMAT_USHORT,
            interpretation: VIPS_INTERPRETATION_RGB16
        ).png()
        #expect(try Decoded(original).format == VIPS_FORMAT_USHORT)
        for allowWebP in [false, true] {
            let thumbnail = try await processor.thumbnail(of: original, maxSide: 400, allowWebP: allowWebP)
            let decoded = try Decoded(thumbnail.data)
            #expect(decoded.format == VIPS_FORMAT_UCHAR)
            #expect(decoded.interpretation == VIPS_INTERPRETATION_sRGB)
            #expect(abs(decoded.average - 128) < 3)
        }
    }

    @Test("A grey image stays grey: one band, the same tone; 16-bit grey becomes 8-bit")
    func grey() async throws {
        let original = try TestImage.flat(
            width: 500, height: 500, bands: 1, value: 100, interpretation: VIPS_INTERPRETATION_B_W
        ).jpeg()
        let decoded = try Decoded(try await processor.thumbnail(of: original, maxSide: 100, allowWebP: false).data)
        #expect(decoded.bands == 1)
        #expect(abs(decoded.average - 100) < 2)

        let deep = try TestImage.flat(
            width: 500, height: 500, bands: 1, value: 32768, format: VIPS_FORMAT_USHORT,
            interpretation: VIPS_INTERPRETATION_GREY16
        ).png()
        let shallow = try Decoded(try await processor.thumbnail(of: deep, maxSide: 100, allowWebP: false).data)
        #expect(shallow.format == VIPS_FORMAT_UCHAR)
        #expect(abs(shallow.average - 128) < 3)
    }

    @Test("A Display P3 image is converted to sRGB; an sRGB-tagged one is left as it is")
    func colourProfiles() async throws {
        // A saturated orange: P3 values mean a more saturated colour than the same sRGB values.
        func orange() throws -> TestImage {
            try TestImage.flat(width: 300, height: 300, bands: 3, value: 0).derived { tessera_fixture_orange($0) }
        }
        let untagged = try Decoded(
            try await processor.thumbnail(of: orange().jpeg(), maxSide: 100, allowWebP: false).data)
        let p3 = try orange().with(profile: TestImage.profile("p3")).jpeg()
        let srgb = try orange().with(profile: TestImage.profile("srgb")).jpeg()
        let fromP3 = try Decoded(try await processor.thumbnail(of: p3, maxSide: 100, allowWebP: false).data)
        let fromSRGB = try Decoded(try await processor.thumbnail(of: srgb, maxSide: 100, allowWebP: false).data)
        #expect(abs(fromSRGB.average - untagged.average) < 1)
        #expect(abs(fromP3.average - untagged.average) > 3)
        #expect(fromP3.interpretation == VIPS_INTERPRETATION_sRGB)
        #expect(!fromP3.fields.contains("icc-profile-data"))
    }

    @Test("Transparency becomes white in a JPEG and stays in a WebP")
    func transparency() async throws {
        let clear = try TestImage.flat(width: 400, height: 400, bands: 4, value: 0).png()
        let jpeg = try await processor.thumbnail(of: clear, maxSide: 200, allowWebP: false)
        #expect(try Decoded(jpeg.data).bands == 3)
        #expect(try Decoded(jpeg.data).average > 250)

        let halfClear = try TestImage.photo(width: 400, height: 400).derived { tessera_fixture_with_alpha($0, 128) }
            .png()
        let webpWins = ImageProcessor(concurrency: 1, jpegQuality: 100, webpQuality: 5)
        let webp = try await webpWins.thumbnail(of: halfClear, maxSide: 200, allowWebP: true)
        #expect(webp.format == .webp)
        #expect(try Decoded(webp.data).bands == 4)
    }

    @Test("WebP only when allowed, and only when smaller than the JPEG")
    func webpRule() async throws {
        let original = try TestImage.photo(width: 1000, height: 700).jpeg()
        let jpeg = try await processor.thumbnail(of: original, maxSide: 400, allowWebP: false)
        #expect(jpeg.format == .jpeg)

        // A coarse WebP against a fine JPEG: the WebP is far smaller and is chosen.
        let webpWins = ImageProcessor(concurrency: 1, jpegQuality: 100, webpQuality: 5)
        let small = try await webpWins.thumbnail(of: original, maxSide: 400, allowWebP: true)
        #expect(small.format == .webp)
        #expect(try Decoded(small.data).loader == "webpload_buffer")
        let jpegOnly = try await webpWins.thumbnail(of: original, maxSide: 400, allowWebP: false)
        #expect(jpegOnly.format == .jpeg)
        #expect(small.data.count < jpegOnly.data.count)

        // A fine WebP against a coarse JPEG: the JPEG is smaller and is kept, WebP allowed or not.
        let jpegWins = ImageProcessor(concurrency: 1, jpegQuality: 5, webpQuality: 100)
        let kept = try await jpegWins.thumbnail(of: original, maxSide: 400, allowWebP: true)
        #expect(kept.format == .jpeg)
        #expect((kept.width, kept.height) == (400, 280))
    }

    @Test("A truncated JPEG is unreadable, not a crash or a half-grey thumbnail")
    func truncated() async throws {
        let data = try TestImage.photo(width: 1200, height: 800).jpeg()
        await #expect {
            _ = try await processor.thumbnail(of: data.prefix(data.count / 2), maxSide: 400, allowWebP: true)
        } throws: { error in
            guard case ImagingError.unreadable = error else { return false }
            return true
        }
        // The processor still works afterwards.
        _ = try await processor.thumbnail(of: data, maxSide: 400, allowWebP: false)
    }

    @Test("HTML is refused before libvips sees it")
    func html() async {
        await #expect(throws: ImagingError.notAnImage) {
            try await processor.thumbnail(of: Data("<!doctype html><p>hi".utf8), maxSide: 400, allowWebP: false)
        }
    }

    @Test("A PNG claiming 30000×30000 pixels is refused before decoding")
    func decompressionBomb() async {
        let png = Data(PNGBytes.claiming(width: 30000, height: 30000))
        await #expect(throws: ImagingError.tooManyPixels(width: 30000, height: 30000, limit: 50_000_000)) {
            try await processor.thumbnail(of: png, maxSide: 400, allowWebP: false)
        }
    }

    @Test("Sides outside 1...10000 are refused", arguments: [0, -5, 10_001])
    func badSide(side: Int) async throws {
        let data = try TestImage.photo(width: 100, height: 100).jpeg()
        await #expect(throws: ImagingError.self) {
            try await processor.thumbnail(of: data, maxSide: side, allowWebP: false)
        }
    }
}

@Suite("Thumbnails of files")
struct FileThumbnailTests {
    let processor = ImageProcessor(concurrency: 2)

    @Test("A JPEG file is shrunk on load, orientation applied")
    func file() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            try TestImage.photo(width: 2400, height: 1600).with(orientation: 8).jpeg(), as: "photo.jpg")
        let thumbnail = try await processor.thumbnail(fileAt: path, maxSide: 400, allowWebP: false)
        #expect((thumbnail.width, thumbnail.height) == (267, 400))
        #expect(try Decoded(thumbnail.data).height == 400)
    }

    @Test("File names are taken literally: brackets are not libvips load options")
    func brackets() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(try TestImage.photo(width: 300, height: 200).png(), as: "copy[shrink=2]")
        let thumbnail = try await processor.thumbnail(fileAt: path, maxSide: 400, allowWebP: false)
        #expect((thumbnail.width, thumbnail.height) == (300, 200))
    }

    @Test("Missing files, non-images and oversized images are refused")
    func refusals() async throws {
        let folder = try TemporaryFolder()
        await #expect {
            try await processor.thumbnail(fileAt: folder.url.path + "/missing.jpg", maxSide: 400, allowWebP: false)
        } throws: { error in
            guard case ImagingError.unreadable = error else { return false }
            return true
        }
        let html = try folder.write(Data("<html></html>".utf8), as: "page.jpg")
        await #expect(throws: ImagingError.notAnImage) {
            try await processor.thumbnail(fileAt: html, maxSide: 400, allowWebP: false)
        }
        let bomb = try folder.write(Data(PNGBytes.claiming(width: 30000, height: 30000)), as: "bomb.png")
        await #expect(throws: ImagingError.tooManyPixels(width: 30000, height: 30000, limit: 50_000_000)) {
            try await processor.thumbnail(fileAt: bomb, maxSide: 400, allowWebP: false)
        }
        let truncated = try TestImage.photo(width: 1200, height: 800).jpeg()
        let cut = try folder.write(truncated.prefix(truncated.count / 3), as: "cut.jpg")
        await #expect {
            try await processor.thumbnail(fileAt: cut, maxSide: 400, allowWebP: false)
        } throws: { error in
            guard case ImagingError.unreadable = error else { return false }
            return true
        }
    }
}
