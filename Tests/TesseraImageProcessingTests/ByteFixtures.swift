import Foundation

/// Big-endian and little-endian integers as bytes.
extension Array where Element == UInt8 {
    mutating func append16(_ value: Int, bigEndian: Bool) {
        let bytes = [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        append(contentsOf: bigEndian ? bytes : bytes.reversed())
    }

    mutating func append32(_ value: Int, bigEndian: Bool) {
        let bytes = [
            UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
        ]
        append(contentsOf: bigEndian ? bytes : bytes.reversed())
    }
}

/// An `exif-data` blob as a camera writes it: `"Exif\0\0"`, a little-endian TIFF header, IFD0, then the
/// EXIF and GPS sub-IFDs it points to.
struct ExifBlob {
    enum Value {
        case ascii(String)
        case short(Int)
        case rational([(Int, Int)])
        case long(Int)

        var type: Int {
            switch self {
            case .ascii: 2
            case .short: 3
            case .long: 4
            case .rational: 5
            }
        }

        var count: Int {
            switch self {
            case .ascii(let text): text.utf8.count + 1
            case .short, .long: 1
            case .rational(let values): values.count
            }
        }

        var bytes: [UInt8] {
            var bytes: [UInt8] = []
            switch self {
            case .ascii(let text): bytes = Array(text.utf8) + [0]
            case .short(let value): bytes.append16(value, bigEndian: false)
            case .long(let value): bytes.append32(value, bigEndian: false)
            case .rational(let values):
                for (numerator, denominator) in values {
                    bytes.append32(numerator, bigEndian: false)
                    bytes.append32(denominator, bigEndian: false)
                }
            }
            return bytes
        }
    }

    var ifd0: [Int: Value] = [:]
    var exif: [Int: Value] = [:]
    var gps: [Int: Value] = [:]

    var bytes: [UInt8] {
        var ifd0 = self.ifd0
        // The sub-IFD pointers are filled in once the sizes are known; sizes do not depend on their values.
        if !exif.isEmpty { ifd0[0x8769] = .long(0) }
        if !gps.isEmpty { ifd0[0x8825] = .long(0) }
        let exifOffset = 8 + Self.size(ifd0)
        let gpsOffset = exifOffset + Self.size(exif)
        if !exif.isEmpty { ifd0[0x8769] = .long(exifOffset) }
        if !gps.isEmpty { ifd0[0x8825] = .long(exif.isEmpty ? exifOffset : gpsOffset) }
        var tiff: [UInt8] = Array("II".utf8) + [42, 0]
        tiff.append32(8, bigEndian: false)
        tiff += Self.ifd(ifd0, at: 8)
        if !exif.isEmpty { tiff += Self.ifd(exif, at: exifOffset) }
        if !gps.isEmpty { tiff += Self.ifd(gps, at: exif.isEmpty ? exifOffset : gpsOffset) }
        return Array("Exif".utf8) + [0, 0] + tiff
    }

    private static func size(_ entries: [Int: Value]) -> Int {
        2 + 12 * entries.count + 4
            + entries.values.map { $0.bytes.count > 4 ? ($0.bytes.count + 1) & ~1 : 0 }.reduce(0, +)
    }

    private static func ifd(_ entries: [Int: Value], at offset: Int) -> [UInt8] {
        var table: [UInt8] = []
        var data: [UInt8] = []
        let dataStart = offset + 2 + 12 * entries.count + 4
        table.append16(entries.count, bigEndian: false)
        for (tag, value) in entries.sorted(by: { $0.key < $1.key }) {
            table.append16(tag, bigEndian: false)
            table.append16(value.type, bigEndian: false)
            table.append32(value.count, bigEndian: false)
            var bytes = value.bytes
            if bytes.count <= 4 {
                table += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                table.append32(dataStart + data.count, bigEndian: false)
                if bytes.count % 2 == 1 { bytes.append(0) }
                data += bytes
            }
        }
        table.append32(0, bigEndian: false)
        return table + data
    }
}

/// An `iptc-data` blob as Photoshop writes it into a JPEG's APP13: `"Photoshop 3.0\0"`, an `8BIM` resource
/// 0x0404 holding IIM records.
struct IPTCBlob {
    var records: [(record: Int, dataset: Int, bytes: [UInt8])] = []
    /// A resource placed before the IPTC one, as Photoshop does (resolution info, here junk).
    var precedingResource = true

    mutating func add(_ dataset: some BinaryInteger, _ text: String, record: Int = 2) {
        records.append((record, Int(dataset), Array(text.utf8)))
    }

    mutating func add(_ dataset: some BinaryInteger, bytes: [UInt8], record: Int = 2) {
        records.append((record, Int(dataset), bytes))
    }

    var iim: [UInt8] {
        var iim: [UInt8] = []
        for (record, dataset, bytes) in records {
            iim += [0x1C, UInt8(record), UInt8(dataset)]
            iim.append16(bytes.count, bigEndian: true)
            iim += bytes
        }
        return iim
    }

    var bytes: [UInt8] {
        var blob = Array("Photoshop 3.0".utf8) + [0]
        if precedingResource {
            // Resource 0x03ED with a 3-letter name (odd Pascal string + pad) and 5 data bytes (+ pad).
            blob += Array("8BIM".utf8)
            blob.append16(0x03ED, bigEndian: true)
            blob += [3] + Array("abc".utf8)
            blob.append32(5, bigEndian: true)
            blob += [1, 2, 3, 4, 5, 0]
        }
        blob += Array("8BIM".utf8)
        blob.append16(0x0404, bigEndian: true)
        blob += [0, 0]
        let iim = self.iim
        blob.append32(iim.count, bigEndian: true)
        blob += iim
        if iim.count % 2 == 1 { blob.append(0) }
        return blob
    }
}

/// PNG files written byte by byte.
enum PNGBytes {
    /// A valid PNG whose IHDR declares `width`×`height` RGB pixels, with almost no pixel data: a few hundred
    /// bytes that a decoder would have to expand to gigabytes.
    static func claiming(width: Int, height: Int) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.append32(width, bigEndian: true)
        header.append32(height, bigEndian: true)
        header += [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, adaptive filtering, no interlace
        png += chunk("IHDR", header)
        // A zlib stream holding one empty stored block: far too little data, which a header read never notices.
        png += chunk("IDAT", [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01])
        png += chunk("IEND", [])
        return png
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append32(data.count, bigEndian: true)
        let typed = Array(type.utf8) + data
        bytes += typed
        bytes.append32(Int(crc32(typed)), bigEndian: true)
        return bytes
    }

    /// CRC-32 (ISO 3309, as PNG uses it), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

/// XMP packets as Lightroom and exiftool write them.
enum XMPFixture {
    static func packet(
        title: String? = nil, description: String? = nil, subjects: [String] = [], creators: [String] = [],
        rights: String? = nil, attributes: String = ""
    ) -> String {
        func alt(_ name: String, _ value: String?) -> String {
            guard let value else { return "" }
            return """
                <\(name)><rdf:Alt><rdf:li xml:lang="fr-FR">Autre</rdf:li>\
                <rdf:li xml:lang="x-default">\(value)</rdf:li></rdf:Alt></\(name)>
                """
        }
        func list(_ name: String, _ kind: String, _ values: [String]) -> String {
            guard !values.isEmpty else { return "" }
            return "<\(name)><rdf:\(kind)>" + values.map { "<rdf:li>\($0)</rdf:li>" }.joined()
                + "</rdf:\(kind)></\(name)>"
        }
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" \(attributes)>
               \(alt("dc:title", title))
               \(alt("dc:description", description))
               \(list("dc:subject", "Bag", subjects))
               \(list("dc:creator", "Seq", creators))
               \(alt("dc:rights", rights))
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            \(String(repeating: " ", count: 200))
            <?xpacket end="w"?>
            """
    }
}
