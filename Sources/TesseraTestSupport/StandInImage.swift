import Foundation

/// The picture every stand-in CDN answers with: a real 96×64 JPEG (a grey ramp made with libvips), so the
/// image proxy can be tested end to end from a search result to its thumbnail.
public enum StandInImage {
    public static let width = 96
    public static let height = 64
    public static let jpeg = [UInt8](Data(base64Encoded: encoded)!)

    private static let encoded =
        "/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCABAAGADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD5ttO1bdp2rEtO1bdp2oA2rTtW3adqxLTtW3adqANu07VtWnasW07VtWnagDbtO1bdp2rEtO1bdp2oA2rTtW3adqxLTtW3adqANu07VtWnasW07VtWnagD82rTtW3adqxLTtW3adqANq07Vt2nasS07Vt2nagDbtO1bVp2rFtO1bVp2oA27TtW3adqxLTtW3adqANq07Vt2nasS07Vt2nagDbtO1bVp2rFtO1bVp2oA/Nq07Vt2nasS07Vt2nagDatO1bdp2rEtO1bdp2oA27TtW1adqxbTtW1adqANu07Vt2nasS07Vt2nagDatO1bdp2rEtO1bdp2oA27TtW1adqxbTtW1adqAPzatO1bdp2rEtO1bdp2oA2rTtW3adqxLTtW3adqANu07VtWnasW07VtWnagDbtO1bdp2rEtO1bdp2oA2rTtW3adqxLTtW3adqANu07VtWnasW07VtWnagD/9k="
}

extension StandInImage {
    /// A 64×64 grey PNG of 8×8 blocks whose shades come from `seed`: pictures made from different seeds are
    /// different pictures to a perceptual hash (their low frequencies are unrelated), while one seed always
    /// gives the same bytes. Written here, without libvips: stored (uncompressed) deflate blocks.
    public static func pattern(seed: UInt64) -> [UInt8] {
        let side = 64
        var state = seed
        let shades = (0..<64).map { _ in UInt8(truncatingIfNeeded: splitMix(&state) >> 56) }
        var raw: [UInt8] = []
        raw.reserveCapacity(side * (side + 1))
        for y in 0..<side {
            raw.append(0)  // filter: none
            for x in 0..<side { raw.append(shades[(y / 8) * 8 + x / 8]) }
        }
        let length = UInt16(raw.count)
        var zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8)]
        zlib += [UInt8(~length & 0xFF), UInt8(~length >> 8)] + raw + bigEndian(adler32(raw))
        let header = bigEndian(UInt32(side)) + bigEndian(UInt32(side)) + [8, 0, 0, 0, 0]  // 8-bit grey
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
            + chunk("IEND", [])
    }

    /// A picture of its own for each image path (`pattern`, seeded by the path), for
    /// `StandInServer.images`: every image host then shows a different picture at every address.
    public static func distinct(for path: String) -> [UInt8] {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return pattern(seed: hash)
    }

    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}
