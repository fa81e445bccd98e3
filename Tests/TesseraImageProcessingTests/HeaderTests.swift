import Foundation
import TesseraCore
import TesseraImageProcessing
import Testing

@Suite("Reading headers without decoding")
struct HeaderTests {
    let processor = ImageProcessor(concurrency: 1)

    @Test("Every format's size is read", arguments: ImageFormat.allCases)
    func everyFormat(format: ImageFormat) throws {
        let image = try TestImage.photo(width: 120, height: 80)
        let data = image.encoded(as: format)
        #expect(try processor.header(of: data) == ImageHeader(format: format, width: 120, height: 80))
    }

    @Test("EXIF orientations 5–8 swap width and height, 1–4 do not")
    func orientation() throws {
        for orientation in 1...8 {
            let data = try TestImage.photo(width: 120, height: 80).with(orientation: orientation).jpeg()
            let header = try processor.header(of: data)
            #expect(
                (header.width, header.height) == (orientation >= 5 ? (80, 120) : (120, 80)),
                "orientation \(orientation)")
        }
    }

    @Test("HTML, nothing and a few bytes are not images")
    func notImages() {
        for bytes in [Data("<html><body>404</body></html>".utf8), Data(), Data([0x47, 0x49, 0x46])] {
            #expect(throws: ImagingError.notAnImage) { try processor.header(of: bytes) }
        }
    }

    @Test("A header cut short is unreadable")
    func truncatedHeader() throws {
        let png = try TestImage.photo(width: 120, height: 80).png()
        #expect {
            try processor.header(of: png.prefix(20))
        } throws: { error in
            guard case ImagingError.unreadable(let reason) = error else { return false }
            return !reason.isEmpty
        }
    }

    @Test("A PNG declaring 30000×30000 pixels is refused from its header")
    func decompressionBomb() throws {
        let png = Data(PNGBytes.claiming(width: 30000, height: 30000))
        #expect(png.count < 200)
        #expect(throws: ImagingError.tooManyPixels(width: 30000, height: 30000, limit: 50_000_000)) {
            try processor.header(of: png)
        }
        // The same bytes claiming a small size are a readable header: the refusal is the pixel count's.
        let small = Data(PNGBytes.claiming(width: 300, height: 200))
        #expect(try processor.header(of: small) == ImageHeader(format: .png, width: 300, height: 200))
    }

    @Test("The pixel limit is the processor's")
    func customLimit() throws {
        let strict = ImageProcessor(maxPixels: 9_999, concurrency: 1)
        let data = try TestImage.photo(width: 100, height: 100).jpeg()
        #expect(throws: ImagingError.tooManyPixels(width: 100, height: 100, limit: 9_999)) {
            try strict.header(of: data)
        }
        #expect(try ImageProcessor(maxPixels: 10_000, concurrency: 1).header(of: data).width == 100)
    }

    @Test("Our hand-made PNG chunks carry correct CRCs")
    func crc() {
        #expect(PNGBytes.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }

    @Test("Errors explain themselves")
    func descriptions() {
        #expect(ImagingError.notAnImage.description.contains("JPEG"))
        #expect(
            ImagingError.tooManyPixels(width: 30000, height: 20000, limit: 50_000_000).description.contains(
                "30000×20000"))
        #expect(ImagingError.unreadable("Premature end of JPEG file").description.contains("Premature end"))
        #expect(ImagingError.failed("out of memory").description.contains("out of memory"))
    }
}
