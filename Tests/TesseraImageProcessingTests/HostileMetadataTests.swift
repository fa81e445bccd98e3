import Foundation
import TesseraCore
import Testing

@testable import TesseraImageProcessing

/// Metadata with extreme numbers and shapes, read as the library indexer reads it (docs/images.md, "Numbers in
/// image files"): nothing computed from a file's number may overflow, and no packet's shape may cost time
/// beyond its size.
@Suite("Hostile metadata")
struct HostileMetadataTests {
    let processor = ImageProcessor(concurrency: 1, timeZone: TimeZone(identifier: "UTC")!)

    private func info(_ image: TestImage, _ save: (TestImage) -> Data = { $0.jpeg() }) throws -> ImageInfo {
        let folder = try TemporaryFolder()
        return try processor.info(fileAt: try folder.write(save(image), as: "photo"))
    }

    @Test("EXIF numbers written as text, zero denominators and orientation 65535 leave the entries sane")
    func exifExtremes() throws {
        var exif = ExifBlob()
        exif.ifd0[0x010F] = .ascii("Hostile")
        exif.ifd0[0x0112] = .short(65535)
        exif.exif[0x829A] = .ascii("1e-320")  // ExposureTime: 1 / x is infinite
        exif.exif[0x829D] = .rational([(28, 0)])  // FNumber over zero
        exif.exif[0x8827] = .ascii("1e300")  // ISO
        exif.exif[0x9204] = .ascii("-1e300")  // ExposureBiasValue
        exif.exif[0x920A] = .ascii("inf")  // FocalLength
        exif.exif[0xA405] = .ascii("nan")  // FocalLengthIn35mmFilm
        let info = try info(try TestImage.photo(width: 64, height: 48).with(exif: exif.bytes))
        #expect(info.width == 64 && info.height == 48, "an orientation outside 1...8 is none")
        for entry in info.metadata {
            #expect(entry.value.count < 40, "\(entry.label): \(entry.value)")
        }
        #expect(!info.metadata.contains { ["Exposure", "Aperture", "ISO", "Focal length"].contains($0.label) })
    }

    @Test(
        "A field's number is finite and between 10⁻¹² and 10¹²",
        arguments: [
            ("1e-320 (1e-320, ASCII, 7 components, 7 bytes)", nil), ("inf (inf, ASCII, 4 components, 4 bytes)", nil),
            ("nan (nan, ASCII, 4 components, 4 bytes)", nil), ("1/0 (1/0, Rational, 1 components, 8 bytes)", nil),
            ("4294967295/1 (4294967295, Rational, 1 components, 8 bytes)", 4_294_967_295),
            ("1e300 (1e300, ASCII, 6 components, 6 bytes)", nil), ("0/1 (0, Rational, 1 components, 8 bytes)", 0),
            ("14/5 (f/2.8, Rational, 1 components, 8 bytes)", 2.8),
        ] as [(String, Double?)])
    func exifNumbers(text: String, number: Double?) {
        #expect(ExifField(text).number == number)
    }

    @Test("A field whose byte count is Int's largest is still split")
    func exifHugeCount() {
        let field = ExifField("abc (abc, ASCII, 9223372036854775807 components, 9223372036854775807 bytes)")
        #expect(field.value == "abc")
    }

    @Test("XMP: 200,000 nested elements and 200,000 unmatched `<` read in linear time; the title is kept")
    func xmpDeep() throws {
        let depth = 200_000
        let packet =
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description>"#
            + #"<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Hostile fox</rdf:li></rdf:Alt></dc:title>"#
            + "<dc:description>" + String(repeating: "<b>", count: depth) + "deep"
            + String(repeating: "</b>", count: depth) + "</dc:description>"
            + "<dc:rights>" + String(repeating: "<", count: depth) + "x</dc:rights>"
            + "</rdf:Description></rdf:RDF></x:xmpmeta>"
        let xmp = XMP(Array(packet.utf8))
        #expect(xmp.value("dc:title") == "Hostile fox")
        #expect(xmp.value("dc:description") == nil, "its text lies past the 64,000 characters a value is read to")
        #expect(xmp.value("dc:rights")?.count ?? 0 <= MetadataText.maxLength)
        let info = try info(try TestImage.photo(width: 32, height: 32).with(xmp: packet)) { $0.png() }
        #expect(info.title == "Hostile fox")
    }

    @Test("XMP: 100,000 start tags never closed are no values, found without a scan from each")
    func xmpUnclosed() {
        let packet = String(repeating: "<dc:creator><rdf:li>", count: 100_000)
        let xmp = XMP(Array(packet.utf8))
        #expect(xmp.values("dc:creator").isEmpty)
        #expect(xmp.value("dc:title") == nil)
    }

    @Test("XMP: a packet is read up to its first MiB")
    func xmpHuge() {
        let title = #"<dc:title><rdf:Alt><rdf:li xml:lang="x-default">First</rdf:li></rdf:Alt></dc:title>"#
        let late = #"<dc:rights>Late</dc:rights>"#
        let packet = title + String(repeating: " <x/>", count: XMP.maxBytes / 5) + late
        let xmp = XMP(Array(packet.utf8))
        #expect(xmp.text.utf8.count <= XMP.maxBytes)
        #expect(xmp.value("dc:title") == "First")
        #expect(xmp.value("dc:rights") == nil)
    }

    @Test("Perceptual hashes of a one-pixel and a one-pixel-high image")
    func hashesOfTinyImages() async throws {
        for (width, height) in [(1, 1), (1, 4_000), (4_000, 1)] {
            let image = try TestImage.photo(width: width, height: height).png()
            _ = try await processor.perceptualHash(of: image)
            let thumbnail = try await processor.thumbnail(of: image, maxSide: 400, allowWebP: true, hashing: .pHash)
            #expect(thumbnail.width >= 1 && thumbnail.height >= 1)
        }
    }
}
