/// The image formats Tessera reads. Thumbnails come out as JPEG or WebP.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, gif, webp, avif, heic

    /// The media type for `Content-Type`.
    public var mimeType: String { "image/\(rawValue)" }
}

/// Tells an image's format from its first bytes (magic numbers), before any decoder sees it.
public enum ImageSniffer {
    /// How many leading bytes `format(of:)` looks at; fewer are fine, more are ignored.
    public static let prefixLength = 32

    /// The format the leading bytes announce, or `nil` when they are not one Tessera reads.
    public static func format(of prefix: some Collection<UInt8>) -> ImageFormat? {
        let bytes = Array(prefix.prefix(prefixLength))
        func matches(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
        }
        if matches([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if matches(Array("GIF87a".utf8)) || matches(Array("GIF89a".utf8)) { return .gif }
        if matches(Array("RIFF".utf8)) && matches(Array("WEBP".utf8), at: 8) { return .webp }
        if matches(Array("ftyp".utf8), at: 4) { return isobmffFormat(bytes) }
        return nil
    }

    /// AVIF and HEIC are both HEIF (ISO BMFF) files: the `ftyp` box's major brand, else its compatible
    /// brands, say which codec is inside.
    private static func isobmffFormat(_ bytes: [UInt8]) -> ImageFormat? {
        guard bytes.count >= 12 else { return nil }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        func brand(at offset: Int) -> String { String(decoding: bytes[offset..<offset + 4], as: UTF8.self) }
        var brands = [brand(at: 8)]
        // Compatible brands follow the minor version, as far as the box and the prefix go.
        var offset = 16
        while offset + 4 <= min(bytes.count, max(boxSize, 16)) {
            brands.append(brand(at: offset))
            offset += 4
        }
        for brand in brands {
            if avifBrands.contains(brand) { return .avif }
            if heicBrands.contains(brand) { return .heic }
        }
        // A still-image HEIF whose codec the prefix does not name: HEIC is by far the usual one.
        return brands.contains { heifBrands.contains($0) } ? .heic : nil
    }

    private static let avifBrands: Set = ["avif", "avis"]
    private static let heicBrands: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx"]
    private static let heifBrands: Set = ["mif1", "msf1"]
}
