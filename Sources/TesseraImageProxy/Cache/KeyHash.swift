import Crypto
import Foundation

/// SHA-256 of a cache key in lower-case hex: the disk cache's file names and the proxy's entity tags.
enum KeyHash {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The first `bytes` bytes of the digest (all 32 by default) as `2 × bytes` hex digits.
    static func hex(_ key: String, bytes: Int = 32) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes * 2)
        for byte in SHA256.hash(data: Data(key.utf8)).prefix(bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
