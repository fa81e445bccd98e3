import NIOCore
import Synchronization

/// An image ready to send: its bytes, type and entity tag.
public struct ServedImage: Sendable {
    public var body: ByteBuffer
    public var contentType: String
    public var etag: String

    public init(body: ByteBuffer, contentType: String, etag: String) {
        self.body = body
        self.contentType = contentType
        self.etag = etag
    }
}

/// Served images kept in memory, bounded by their bytes; the least recently used go first.
///
/// Bodies are `ByteBuffer`s, so a hit is sent without copying. The cost of an entry is its body plus its
/// key plus a fixed overhead, so many tiny entries cannot exceed the bound either.
public final class MemoryImageCache: Sendable {
    static let entryOverhead = 256

    private let entries: Mutex<CostLRU<String, ServedImage>>

    public init(capacityBytes: Int) {
        entries = Mutex(CostLRU(capacity: max(0, capacityBytes)))
    }

    public func get(_ key: String) -> ServedImage? {
        entries.withLock { $0.value(for: key) }
    }

    public func put(_ image: ServedImage, for key: String) {
        let cost = image.body.readableBytes + key.utf8.count + Self.entryOverhead
        entries.withLock { _ = $0.insert(image, for: key, cost: cost) }
    }

    /// Bytes held now (never above the capacity).
    public var totalBytes: Int { entries.withLock { $0.totalCost } }
    public var count: Int { entries.withLock { $0.count } }
    public var capacityBytes: Int { entries.withLock { $0.capacity } }
}
