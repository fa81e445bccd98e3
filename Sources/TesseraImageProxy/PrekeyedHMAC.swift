import Crypto
import Foundation

/// HMAC-SHA256 (RFC 2104) with the key's two padded blocks hashed once, fed raw bytes.
///
/// Swift Crypto's `HMAC` computes the same code, but takes a message only as `DataProtocol`, whose generic
/// walk over regions cost more than the hashing itself for the short messages signed here (an image address
/// signed three or four times for each search result; docs/search.md, "Signing image addresses"). `SHA256` takes raw
/// bytes. The tests check every code against `HMAC<SHA256>`.
struct PrekeyedHMAC: @unchecked Sendable {
    // `SHA256` is a value that is not marked `Sendable`; these two are only ever copied, never changed.
    private let inner: SHA256
    private let outer: SHA256

    init(key: some ContiguousBytes) {
        var block = [UInt8](repeating: 0, count: 64)
        key.withUnsafeBytes { key in
            if key.count > 64 {
                SHA256.hash(data: key).withUnsafeBytes { block.replaceSubrange(0..<$0.count, with: $0) }
            } else {
                block.replaceSubrange(0..<key.count, with: key)
            }
        }
        var inner = SHA256()
        inner.update(data: block.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(data: block.map { $0 ^ 0x5C })
        self.inner = inner
        self.outer = outer
    }

    /// The code of the message made of `parts` one after another.
    func code(_ parts: UnsafeRawBufferPointer...) -> SHA256.Digest {
        var inner = self.inner
        for part in parts { inner.update(bufferPointer: part) }
        var outer = self.outer
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize()
    }
}
