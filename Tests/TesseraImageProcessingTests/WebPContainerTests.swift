import Foundation
import Testing

@testable import TesseraImageProcessing

@Suite("WebP metadata chunks")
struct WebPContainerTests {
    private func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        var bytes = Array(fourCC.utf8)
        bytes.append32(payload.count, bigEndian: false)
        return bytes + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    private func riff(_ chunks: [[UInt8]]) -> [UInt8] {
        let body = Array("WEBP".utf8) + chunks.joined()
        var bytes = Array("RIFF".utf8)
        bytes.append32(body.count, bigEndian: false)
        return bytes + body
    }

    @Test("EXIF, XMP and ICC chunks are cut out, their flags cleared and the RIFF size fixed")
    func removes() {
        // VP8X with alpha (0x10), ICC (0x20), EXIF (0x08) and XMP (0x04).
        let header = chunk("VP8X", [0x3C] + [UInt8](repeating: 0, count: 9))
        let image = chunk("VP8L", [1, 2, 3])
        let input = riff([header, chunk("ICCP", [9, 9]), image, chunk("EXIF", [7, 7, 7, 7]), chunk("XMP ", [5])])
        let output = [UInt8](WebPContainer.removingMetadata(Data(input)))
        var expectedHeader = header
        expectedHeader[8] = 0x10
        #expect(output == riff([expectedHeader, image]))
    }

    @Test("Anything else is left as it is")
    func leavesAlone() {
        let plain = Data(riff([chunk("VP8 ", [1, 2, 3, 4])]))
        #expect(WebPContainer.removingMetadata(plain) == plain)
        let notWebP = Data("RIFF\u{4}\u{0}\u{0}\u{0}WAVE".utf8)
        #expect(WebPContainer.removingMetadata(notWebP) == notWebP)
        // A chunk claiming more bytes than there are.
        var broken = riff([chunk("VP8 ", [1, 2]), chunk("EXIF", [1, 2])])
        broken[broken.count - 6] = 0x7F
        #expect(WebPContainer.removingMetadata(Data(broken)) == Data(broken))
    }
}
