import Foundation

/// The backup's container: a POSIX ustar archive, so `tar -tf backup.tessera` lists it and `tar -x` unpacks
/// it without Tessera. Regular files only; names under 100 bytes (every name a backup uses is); sizes of 8 GiB
/// and over in GNU's base-256 form, which GNU tar and bsdtar read.
enum TarArchive {
    static let block = 512

    /// The header of a regular file of `size` bytes named `name`.
    static func header(name: String, size: Int, mode: Int, modified: Date) -> Data {
        var header = [UInt8](repeating: 0, count: block)
        func put(_ text: String, at offset: Int, width: Int) {
            for (index, byte) in text.utf8.prefix(width).enumerated() { header[offset + index] = byte }
        }
        func octal(_ value: Int, at offset: Int, width: Int) {
            put(
                String(repeating: "0", count: max(0, width - 1 - String(value, radix: 8).count))
                    + String(value, radix: 8), at: offset, width: width - 1)
        }
        put(name, at: 0, width: 100)
        octal(mode, at: 100, width: 8)
        octal(0, at: 108, width: 8)
        octal(0, at: 116, width: 8)
        if size < 0o77777777777 {
            octal(size, at: 124, width: 12)
        } else {
            // GNU base-256: the high bit of the first byte set, then the size big-endian.
            header[124] = 0x80
            for index in 0..<8 { header[135 - index] = UInt8(truncatingIfNeeded: size >> (8 * index)) }
        }
        octal(max(0, Int(modified.timeIntervalSince1970)), at: 136, width: 12)
        header[156] = UInt8(ascii: "0")
        put("ustar", at: 257, width: 6)
        put("00", at: 263, width: 2)
        put("tessera", at: 265, width: 32)
        put("tessera", at: 297, width: 32)
        // The checksum is counted with its own field as spaces, and written as six digits, NUL, space.
        for index in 148..<156 { header[index] = UInt8(ascii: " ") }
        let sum = header.reduce(0) { $0 + Int($1) }
        octal(sum, at: 148, width: 7)
        header[155] = UInt8(ascii: " ")
        return Data(header)
    }

    /// Zeros that bring an entry of `size` bytes up to a whole block.
    static func padding(after size: Int) -> Data {
        Data(count: (block - size % block) % block)
    }

    /// Two zero blocks: the end of the archive.
    static var end: Data { Data(count: 2 * block) }

    /// One entry's header, read back.
    struct Entry {
        let name: String
        let size: Int
        let isFile: Bool
    }

    /// Reads a header block. `nil` for a zero block (the end marker); throws a reason for anything damaged.
    static func parse(_ header: Data) throws(TarError) -> Entry? {
        let bytes = [UInt8](header)
        guard bytes.count == block else { throw .reason("it ends in the middle of a header") }
        if bytes.allSatisfy({ $0 == 0 }) { return nil }
        func text(_ offset: Int, _ width: Int) -> String {
            let field = bytes[offset..<offset + width]
            return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
        }
        func number(_ offset: Int, _ width: Int) throws(TarError) -> Int {
            if bytes[offset] & 0x80 != 0 {
                var value = 0
                for byte in bytes[offset + 1..<offset + width] {
                    guard value < Int.max >> 8 else { throw .reason("a size is out of range") }
                    value = value << 8 | Int(byte)
                }
                return value
            }
            let digits = text(offset, width).trimmingCharacters(in: CharacterSet(charactersIn: " "))
            guard let value = Int(digits.isEmpty ? "0" : digits, radix: 8) else {
                throw .reason("a header has a field that is not a number")
            }
            return value
        }
        var unsigned = bytes
        for index in 148..<156 { unsigned[index] = UInt8(ascii: " ") }
        guard try number(148, 8) == unsigned.reduce(0, { $0 + Int($1) }) else {
            throw .reason("a header's checksum does not match (the file was changed or cut)")
        }
        let prefix = text(345, 155)
        let name = prefix.isEmpty ? text(0, 100) : prefix + "/" + text(0, 100)
        let type = bytes[156]
        return Entry(name: name, size: try number(124, 12), isFile: type == UInt8(ascii: "0") || type == 0)
    }

    enum TarError: Error {
        case reason(String)
    }
}
