import CVips
import Foundation
import TesseraCore
import Testing

@testable import TesseraImageProcessing

/// A source that is already a thumbnail (small enough, plain, light) is served as it is, its metadata cut out;
/// anything else is rendered as before (docs/thumbnails.md, "Sources kept as they are").
@Suite("Sources kept as they are")
struct KeptThumbnailTests {
    let processor = ImageProcessor(concurrency: 2)

    /// A small photo-like JPEG within the kept bytes, checked so that the tests below prove something.
    private func smallJPEG(_ image: TestImage? = nil) throws -> Data {
        let data = try (image ?? TestImage.photo(width: 160, height: 120)).jpeg()
        try #require(data.count <= ImageProcessor.keptBytes(width: 160, height: 120))
        return data
    }

    @Test("A small plain JPEG is served as it is, with the hash a render would give it", arguments: [false, true])
    func keptJPEG(allowWebP: Bool) async throws {
        let original = try smallJPEG()
        let kept = try await processor.thumbnail(
            of: original, maxSide: 400, allowWebP: allowWebP, hashing: PerceptualHashing.chosen)
        // libvips' saver wrote a little EXIF of its own (the resolution): all that changes.
        #expect(kept.data == BareContainer.stripping(original, format: .jpeg))
        #expect(original.count - kept.data.count < 300)
        #expect(kept.format == .jpeg)
        #expect((kept.width, kept.height) == (160, 120))
        let rendered = try await ImageProcessor(concurrency: 1, keepsReadySources: false).thumbnail(
            of: original, maxSide: 400, allowWebP: allowWebP, hashing: PerceptualHashing.chosen)
        #expect(rendered.data != kept.data)
        #expect(try #require(kept.perceptualHash) == rendered.perceptualHash)
    }

    @Test("Metadata is cut out of a kept JPEG and PNG; the picture is left as it is")
    func metadataCutOut() async throws {
        var exif = ExifBlob()
        exif.ifd0[0x013B] = .ascii("Jane Doe")
        var iptc = IPTCBlob()
        iptc.add(25, "secret")
        for format in [ImageFormat.jpeg, .png] {
            let image = try TestImage.solid(width: 160, height: 120, 200, 120, 40)
                .with(
                    exif: exif.bytes, iptc: format == .jpeg ? iptc.bytes : nil, xmp: XMPFixture.packet(title: "Hidden"))
            let original = format == .jpeg ? image.jpeg() : image.png()
            let before = try Decoded(original)
            #expect(before.fields.isSuperset(of: ["exif-data", "xmp-data"]), "\(format)")
            if format == .jpeg { #expect(String(decoding: original, as: UTF8.self).contains("Hidden")) }

            let kept = try await processor.thumbnail(of: original, maxSide: 400, allowWebP: true)
            #expect(kept.format == format)
            #expect(kept.data.count < original.count)
            let after = try Decoded(kept.data)
            #expect(
                after.fields.filter { $0.hasPrefix("exif-") || $0.hasPrefix("iptc-") || $0.hasPrefix("xmp-") } == [])
            #expect(!String(decoding: kept.data, as: UTF8.self).contains("Jane Doe"))
            #expect(!String(decoding: kept.data, as: UTF8.self).contains("Hidden"))
            // Not re-encoded: the compressed picture is the original's, to the last byte.
            if format == .jpeg {
                #expect(kept.data.suffix(64) == original.suffix(64))
            } else {
                // Signature and header, the picture's data, the end: the data is the original's.
                #expect(original.range(of: kept.data.dropFirst(33).dropLast(12)) != nil)
            }
            #expect(after.average == before.average)
        }
    }

    @Test("A small WebP is kept only for a client that takes WebP")
    func webP() async throws {
        let original = try TestImage.solid(width: 160, height: 120, 30, 90, 200).webp()
        let kept = try await processor.thumbnail(of: original, maxSide: 400, allowWebP: true)
        #expect(kept.format == .webp)
        #expect(kept.data == WebPContainer.removingMetadata(original))
        let jpeg = try await processor.thumbnail(of: original, maxSide: 400, allowWebP: false)
        #expect(jpeg.format == .jpeg)
    }

    /// Everything that a thumbnail must change is rendered: larger than the box, turned, in another colour
    /// space or depth, or heavier than a thumbnail would be.
    @Test("Sources a thumbnail must change are rendered", arguments: Unkept.allCases)
    func rendered(_ source: Unkept) async throws {
        let original = try source.data()
        let thumbnail = try await processor.thumbnail(of: original, maxSide: 400, allowWebP: false)
        #expect(thumbnail.format == .jpeg)
        #expect(thumbnail.data != original)
        let decoded = try Decoded(thumbnail.data)
        #expect(decoded.interpretation == VIPS_INTERPRETATION_sRGB || decoded.interpretation == VIPS_INTERPRETATION_B_W)
        #expect(decoded.format == VIPS_FORMAT_UCHAR)
        #expect(!decoded.fields.contains("icc-profile-data"))
        #expect(!decoded.fields.contains("orientation"))
        #expect((thumbnail.width, thumbnail.height) == source.size)
    }

    enum Unkept: String, CaseIterable, CustomTestStringConvertible {
        case larger, turned, displayP3, sixteenBit, cmyk, heavy, gif

        var testDescription: String { rawValue }

        func data() throws -> Data {
            switch self {
            case .larger: return try TestImage.photo(width: 800, height: 600).jpeg()
            case .turned: return try TestImage.solid(width: 160, height: 120, 9, 9, 9).with(orientation: 6).jpeg()
            case .displayP3:
                return try TestImage.solid(width: 160, height: 120, 250, 120, 0).with(profile: TestImage.profile("p3"))
                    .jpeg()
            case .sixteenBit:
                return try TestImage.flat(
                    width: 160, height: 120, bands: 3, value: 32768, format: VIPS_FORMAT_USHORT,
                    interpretation: VIPS_INTERPRETATION_RGB16
                ).png()
            case .cmyk:
                return try TestImage.flat(
                    width: 160, height: 120, bands: 4, value: 0, interpretation: VIPS_INTERPRETATION_CMYK
                ).jpeg()
            case .heavy:
                // Noise compresses badly in a PNG: over half a byte a pixel.
                let data = try TestImage.photo(width: 160, height: 120).png()
                try #require(data.count > ImageProcessor.keptBytes(width: 160, height: 120))
                return data
            case .gif: return try TestImage.solid(width: 160, height: 120, 9, 90, 9).gif()
            }
        }

        var size: (Int, Int) {
            switch self {
            case .larger: (400, 300)
            case .turned: (120, 160)
            default: (160, 120)
            }
        }
    }

    @Test("A damaged small file is refused as a render would refuse it")
    func damaged() async throws {
        let original = try smallJPEG()
        await #expect {
            _ = try await processor.thumbnail(
                of: original.prefix(original.count * 2 / 3), maxSide: 400, allowWebP: true)
        } throws: { error in
            guard case ImagingError.unreadable = error else { return false }
            return true
        }
    }

    @Test("Files that are not well formed are not stripped (they are rendered, or refused)")
    func malformedContainers() throws {
        let jpeg = try smallJPEG()
        // Cut before the scan starts: no start of scan.
        #expect(BareContainer.stripping(jpeg.prefix(40), format: .jpeg) == nil)
        #expect(BareContainer.stripping(Data([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0]), format: .jpeg) == nil)
        let png = try TestImage.solid(width: 16, height: 16, 1, 2, 3).png()
        #expect(BareContainer.stripping(png, format: .png) != nil)
        #expect(BareContainer.stripping(png.dropLast(12), format: .png) == nil, "no IEND")
        #expect(BareContainer.stripping(png.prefix(20), format: .png) == nil, "a chunk cut short")
        #expect(BareContainer.stripping(png, format: .gif) == nil)
    }
}
