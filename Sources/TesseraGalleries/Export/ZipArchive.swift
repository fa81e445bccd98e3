import Foundation

/// Writes a ZIP archive entry by entry; an entry's data can follow its header in pieces, so an export is
/// streamed with one piece of one image in memory at a time.
///
/// Entries are stored, not deflated: images are compressed already, and stored entries cost no CPU.
/// Names are UTF-8 (flag bit 11). No ZIP64: an export stops with an error before 4 GB or 65,535 entries.
public struct ZipArchive: Sendable {
    public struct TooLarge: Error, CustomStringConvertible {
        public var description: String { "The export would be over 4 GB or 65,535 files, more than a ZIP file holds." }
    }

    private var central = Data()
    private var count = 0
    private var offset = 0
    private let time: UInt16
    private let date: UInt16

    public init(modified: Date = Date()) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: modified)
        time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
        date = UInt16(max(0, (parts.year ?? 1980) - 1980) << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1))
    }

    /// The bytes of one entry (its local header and data), to write out in order.
    public mutating func entry(name: String, data: Data) throws -> Data {
        var local = try header(name: name, size: data.count, crc: CRC32.checksum(data))
        local.append(data)
        return local
    }

    /// The local header of an entry whose `size` bytes with checksum `crc` the caller writes right after it.
    public mutating func header(name: String, size: Int, crc: UInt32) throws -> Data {
        let nameBytes = Data(name.utf8)
        guard count < 65_535, offset + 30 + nameBytes.count + size < Int(UInt32.max) else { throw TooLarge() }
        var local = Data()
        local.append(le32: 0x0403_4b50)
        local.append(le16: 20)  // version needed: 2.0
        local.append(le16: 0x0800)  // UTF-8 names
        local.append(le16: 0)  // stored
        local.append(le16: time)
        local.append(le16: date)
        local.append(le32: crc)
        local.append(le32: UInt32(size))
        local.append(le32: UInt32(size))
        local.append(le16: UInt16(nameBytes.count))
        local.append(le16: 0)
        local.append(nameBytes)

        central.append(le32: 0x0201_4b50)
        central.append(le16: 0x0314)  // made by: Unix, 2.0
        central.append(le16: 20)
        central.append(le16: 0x0800)
        central.append(le16: 0)
        central.append(le16: time)
        central.append(le16: date)
        central.append(le32: crc)
        central.append(le32: UInt32(size))
        central.append(le32: UInt32(size))
        central.append(le16: UInt16(nameBytes.count))
        central.append(le16: 0)  // extra
        central.append(le16: 0)  // comment
        central.append(le16: 0)  // disk
        central.append(le16: 0)  // internal attributes
        central.append(le32: 0o100644 << 16)  // external: a regular file, rw-r--r--
        central.append(le32: UInt32(offset))
        central.append(nameBytes)

        count += 1
        offset += local.count + size
        return local
    }

    /// The central directory and its end record: the archive's last bytes.
    public func finish() -> Data {
        var end = central
        end.append(le32: 0x0605_4b50)
        end.append(le16: 0)
        end.append(le16: 0)
        end.append(le16: UInt16(count))
        end.append(le16: UInt16(count))
        end.append(le32: UInt32(central.count))
        end.append(le32: UInt32(offset))
        end.append(le16: 0)
        return end
    }
}

/// CRC-32 (IEEE 802.3), as ZIP and PNG use it.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ data: Data) -> UInt32 {
        update(0, with: data)
    }

    /// The checksum of what `crc` covered followed by `data` (start with 0).
    static func update(_ crc: UInt32, with data: Data) -> UInt32 {
        var crc = crc ^ 0xFFFF_FFFF
        data.withUnsafeBytes { bytes in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

extension Data {
    fileprivate mutating func append(le16 value: UInt16) {
        append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)])
    }

    fileprivate mutating func append(le32 value: UInt32) {
        append(contentsOf: [0, 8, 16, 24].map { UInt8((value >> $0) & 0xFF) })
    }
}
