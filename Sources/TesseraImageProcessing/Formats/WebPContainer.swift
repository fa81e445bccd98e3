import Foundation

/// The RIFF container of a WebP file, edited to drop metadata chunks.
///
/// libvips 8.14's WebP saver ignores `strip` and writes an EXIF chunk of its own making (resolution,
/// orientation), and any EXIF or XMP left on the image; so thumbnails have those chunks cut out here.
enum WebPContainer {
    /// `webp` without its `EXIF`, `XMP ` and `ICCP` chunks, and with the extended header's flags for them
    /// cleared. Bytes that are not a well-formed WebP are returned unchanged.
    static func removingMetadata(_ webp: Data) -> Data {
        let bytes = [UInt8](webp)
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8)
        else { return webp }
        var output = Array(bytes[0..<12])
        var offset = 12
        var removed = false
        while offset + 8 <= bytes.count {
            let fourCC = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = bytes[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 8 + size + (size & 1)
            guard end <= bytes.count || (size & 1 == 1 && end - 1 == bytes.count) else { return webp }
            let chunk = bytes[offset..<min(end, bytes.count)]
            if ["EXIF", "XMP ", "ICCP"].contains(fourCC) {
                removed = true
            } else {
                output += chunk
            }
            offset = end
        }
        guard removed, offset >= bytes.count else { return webp }
        // VP8X flags: ICC profile 0x20, EXIF 0x08, XMP 0x04.
        if output.count >= 21, output[12..<16].elementsEqual("VP8X".utf8) { output[20] &= ~UInt8(0x20 | 0x08 | 0x04) }
        let riffSize = output.count - 8
        for index in 0..<4 { output[4 + index] = UInt8(riffSize >> (8 * index) & 0xFF) }
        return Data(output)
    }
}
