import Foundation

/// The IPTC-IIM datasets Tessera shows, read from libvips' `iptc-data` blob.
///
/// In a JPEG that blob is the APP13 segment: `"Photoshop 3.0\0"`, then Photoshop image resources
/// (`"8BIM"`, id, Pascal name, size, data), of which resource 0x0404 holds the IIM records; other files may
/// hand over the bare records. Each record is `0x1C`, record number, dataset number, a big-endian length
/// and the data. Everything is untrusted: lengths are checked against what is there, never assumed.
struct IPTC: Hashable {
    /// Dataset number → values, for record 2 (the application record), in file order.
    private(set) var datasets: [UInt8: [String]] = [:]

    static let objectName: UInt8 = 5
    static let keywords: UInt8 = 25
    static let dateCreated: UInt8 = 55
    static let timeCreated: UInt8 = 60
    static let byline: UInt8 = 80
    static let city: UInt8 = 90
    static let province: UInt8 = 95
    static let country: UInt8 = 101
    static let headline: UInt8 = 105
    static let credit: UInt8 = 110
    static let copyright: UInt8 = 116
    static let caption: UInt8 = 120

    func values(_ dataset: UInt8) -> [String] { datasets[dataset] ?? [] }
    func value(_ dataset: UInt8) -> String? { datasets[dataset]?.first }

    init(_ blob: [UInt8]) {
        let records = Self.recordBytes(in: blob)
        var raw: [(dataset: UInt8, bytes: ArraySlice<UInt8>)] = []
        var utf8 = false
        var index = records.startIndex
        while index + 5 <= records.endIndex, records[index] == 0x1C {
            let record = records[index + 1]
            let dataset = records[index + 2]
            var length = Int(records[index + 3]) << 8 | Int(records[index + 4])
            index += 5
            if length & 0x8000 != 0 {
                // Extended dataset: the low 15 bits say how many bytes hold the length.
                let size = length & 0x7FFF
                guard size <= 4, index + size <= records.endIndex else { break }
                length = records[index..<index + size].reduce(0) { $0 << 8 | Int($1) }
                index += size
            }
            let end = min(records.endIndex, index + length)
            if record == 1 && dataset == 90 {
                // Coded character set: ESC % G announces UTF-8.
                utf8 = Array(records[index..<end]) == [0x1B, 0x25, 0x47]
            } else if record == 2 {
                raw.append((dataset, records[index..<end]))
            }
            index = end
        }
        for (dataset, bytes) in raw {
            datasets[dataset, default: []].append(Self.decode(bytes, utf8: utf8))
        }
    }

    /// The IIM records inside a Photoshop APP13 block, or the blob itself when it is bare IIM.
    private static func recordBytes(in blob: [UInt8]) -> ArraySlice<UInt8> {
        let signature = Array("Photoshop 3.0\0".utf8)
        var index = blob.starts(with: signature) ? signature.count : 0
        guard blob.count > index, blob[index] != 0x1C else { return blob[index...] }
        // Image resources: "8BIM", id (2), Pascal name padded to an even size, data size (4), data (even).
        while index + 12 <= blob.count, blob[index..<index + 4].elementsEqual("8BIM".utf8) {
            let id = Int(blob[index + 4]) << 8 | Int(blob[index + 5])
            let nameLength = Int(blob[index + 6])
            var cursor = index + 6 + ((nameLength + 2) & ~1)
            guard cursor + 4 <= blob.count else { break }
            let size = blob[cursor..<cursor + 4].reduce(0) { $0 << 8 | Int($1) }
            cursor += 4
            let end = min(blob.count, cursor + size)
            if id == 0x0404 { return blob[cursor..<end] }
            index = cursor + ((size + 1) & ~1)
        }
        return []
    }

    /// UTF-8 when announced or valid, else ISO 8859-1, the IIM default most old software wrote.
    private static func decode(_ bytes: ArraySlice<UInt8>, utf8: Bool) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        if utf8 { return String(decoding: bytes, as: UTF8.self) }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
