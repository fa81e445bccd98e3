import Foundation
import TesseraCore
import TesseraImageProcessing
import Testing

@Suite("Sniffing formats from magic numbers")
struct SnifferTests {
    @Test("Images libvips wrote are recognised", arguments: ImageFormat.allCases)
    func realImages(format: ImageFormat) throws {
        let image = try TestImage.photo(width: 64, height: 48)
        let data = image.encoded(as: format)
        #expect(ImageSniffer.format(of: data) == format)
        #expect(ImageSniffer.format(of: data.prefix(ImageSniffer.prefixLength)) == format)
    }

    @Test func mimeTypes() {
        #expect(
            ImageFormat.allCases.map(\.mimeType) == [
                "image/jpeg", "image/png", "image/gif", "image/webp", "image/avif", "image/heic",
            ])
    }

    @Test("AVIF and HEIC are told apart by their ftyp brands")
    func heifBrands() {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            var box: [UInt8] = []
            box.append32(16 + 4 * compatible.count, bigEndian: true)
            box += Array("ftyp\(major)".utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
            return box + [UInt8](repeating: 0, count: 8)
        }
        #expect(ImageSniffer.format(of: ftyp("avif", ["mif1", "miaf"])) == .avif)
        #expect(ImageSniffer.format(of: ftyp("avis", ["avif"])) == .avif)
        #expect(ImageSniffer.format(of: ftyp("mif1", ["mif1", "avif"])) == .avif)
        #expect(ImageSniffer.format(of: ftyp("heic", ["mif1", "heic"])) == .heic)
        #expect(ImageSniffer.format(of: ftyp("mif1", ["heic"])) == .heic)
        #expect(ImageSniffer.format(of: ftyp("heix", [])) == .heic)
        // MP4 and QuickTime videos are ISO BMFF too.
        #expect(ImageSniffer.format(of: ftyp("mp42", ["isom", "mp42"])) == nil)
        #expect(ImageSniffer.format(of: ftyp("qt  ", [])) == nil)
    }

    @Test(
        "Junk is not an image",
        arguments: [
            Array("<!DOCTYPE html><html><body>Not found</body></html>".utf8),
            [],
            [0xFF, 0xD8],
            Array("abc".utf8),
            Array("GIF88a".utf8),
            Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8),
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A],
            Array("%PDF-1.7".utf8),
            [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00],  // TIFF: libvips reads it, Tessera does not
        ])
    func junk(bytes: [UInt8]) {
        #expect(ImageSniffer.format(of: bytes) == nil)
    }

    @Test("Minimal prefixes are enough")
    func minimalPrefixes() {
        #expect(ImageSniffer.format(of: [0xFF, 0xD8, 0xFF]) == .jpeg)
        #expect(ImageSniffer.format(of: Array("GIF87a".utf8)) == .gif)
        #expect(ImageSniffer.format(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8)) == .webp)
    }
}
