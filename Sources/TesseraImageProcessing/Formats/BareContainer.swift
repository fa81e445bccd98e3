import Foundation
import TesseraCore

/// A JPEG, PNG or WebP with its metadata cut out of the file, its pixels untouched: for a source served as its
/// own thumbnail (`ImageProcessor.thumbnail`), which keeps a rendered thumbnail's promise of no EXIF, XMP,
/// IPTC, ICC profile or comment, without decoding and encoding it again.
enum BareContainer {
    /// `data` without its metadata, or `nil` when it is not a well-formed file of `format` (it is then rendered).
    static func stripping(_ data: Data, format: ImageFormat) -> Data? {
        switch format {
        case .jpeg: jpeg([UInt8](data)).map { Data($0) }
        case .png: png([UInt8](data)).map { Data($0) }
        case .webp: WebPContainer.removingMetadata(data)
        case .gif, .avif, .heic: nil
        }
    }

    /// The segments before the scan, without APP1–APP15 (EXIF, XMP, ICC profile, Photoshop's IPTC...) except
    /// APP14 (Adobe's, which says how the colours are coded), and without comments; the scan as it is.
    private static func jpeg(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(bytes.count)
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            var markerAt = offset + 1
            while markerAt < bytes.count && bytes[markerAt] == 0xFF { markerAt += 1 }  // fill bytes
            guard markerAt + 2 < bytes.count else { return nil }
            let marker = bytes[markerAt]
            // Start of scan: the entropy-coded data and whatever follows are the picture.
            if marker == 0xDA {
                output += bytes[offset...]
                return output
            }
            let length = Int(bytes[markerAt + 1]) << 8 | Int(bytes[markerAt + 2])
            let end = markerAt + 1 + length
            guard length >= 2, end <= bytes.count else { return nil }
            let metadata = ((0xE1...0xEF).contains(marker) && marker != 0xEE) || marker == 0xFE
            if !metadata { output += bytes[offset..<end] }
            offset = end
        }
        return nil
    }

    /// The chunks that make the picture: header, palette, transparency, data, end; and `sRGB`, which says what
    /// the pixels already are. Text, EXIF, times, profiles, gamma and an animation's frames go (libvips reads
    /// none of them either, so the browser shows what a rendered thumbnail would).
    private static func png(_ bytes: [UInt8]) -> [UInt8]? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count > 8, bytes[0..<8].elementsEqual(signature) else { return nil }
        let kept: Set<String> = ["IHDR", "PLTE", "tRNS", "sRGB", "IDAT", "IEND"]
        var output = signature
        output.reserveCapacity(bytes.count)
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 12 + length
            guard end <= bytes.count else { return nil }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if kept.contains(type) { output += bytes[offset..<end] }
            if type == "IEND" { return output }
            offset = end
        }
        return nil
    }
}
