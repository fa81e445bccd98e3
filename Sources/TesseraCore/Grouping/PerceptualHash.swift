/// A picture's 64-bit perceptual hash: copies of one picture (resized, recompressed, slightly cropped, in
/// another format, a little brighter) have hashes a few bits apart; different pictures, about half their bits.
/// Made by `TesseraImageProcessing.PerceptualHashing` from a thumbnail; compared with `distance(to:)`.
public struct PerceptualHash: Sendable, Hashable, Codable, CustomStringConvertible {
    public var bits: UInt64

    public init(bits: UInt64) {
        self.bits = bits
    }

    /// The way hashes are made now: 1 with libvips' thumbnail, 2 with the loader's shrink and Tessera's own
    /// resampling (docs/duplicates.md, "Hashing one thumbnail"). Hashes kept by an earlier way are not compared
    /// with new ones: side files carry it (`sideFileText`), database rows went with the migration that
    /// raised it (SQLite `v9-picture-hashes-again`, PostgreSQL 11).
    public static let version = 2

    /// What a thumbnail's side file holds: the version, a colon, `description`.
    public var sideFileText: String { "\(Self.version):\(description)" }

    /// Reads `sideFileText`'s form back; `nil` for anything else, including a hash made another way.
    public init?(sideFileText text: some StringProtocol) {
        let prefix = "\(Self.version):"
        guard text.hasPrefix(prefix), let hash = PerceptualHash(hex: text.dropFirst(prefix.count)) else { return nil }
        self = hash
    }

    /// The Hamming distance: how many of the 64 bits differ (0 the same, 64 every one).
    @inlinable public func distance(to other: PerceptualHash) -> Int {
        (bits ^ other.bits).nonzeroBitCount
    }

    /// Sixteen lower-case hex digits, the form kept beside a cached thumbnail.
    public var description: String {
        let digits = String(bits, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Reads `description`'s form back; `nil` for anything but exactly sixteen hex digits.
    public init?(hex: some StringProtocol) {
        guard hex.utf8.count == 16, hex.allSatisfy(\.isHexDigit), let bits = UInt64(hex, radix: 16) else { return nil }
        self.bits = bits
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let hash = PerceptualHash(hex: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not 16 hex digits: \(text)")
        }
        self = hash
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
