/// The fake results a stand-in holds: per query, a list of records each provider renders in its format.
public struct Corpus: Sendable {
    /// How many results a query has when a test set nothing for it.
    public var defaultTotal = 45
    private var recordsForQuery: [String: [FakeRecord]] = [:]
    private var totalForQuery: [String: Int] = [:]

    public init() {}

    /// Gives `query` exactly these records (for duplicates, hostile titles, odd fields).
    public mutating func set(_ query: String, records: [FakeRecord]) {
        recordsForQuery[query.lowercased()] = records
    }

    /// Gives `query` this many generated records.
    public mutating func set(_ query: String, total: Int) {
        totalForQuery[query.lowercased()] = total
    }

    public func records(for query: String) -> [FakeRecord] {
        let key = query.lowercased()
        if let records = recordsForQuery[key] { return records }
        let total = totalForQuery[key] ?? defaultTotal
        return (0..<total).map { FakeRecord.generated(query: query, index: $0) }
    }
}

/// One fake result, provider-neutral.
public struct FakeRecord: Sendable, Hashable {
    /// Numeric native id (Pixabay, Flickr, iTunes, Wikimedia page id); Openverse turns it into a UUID.
    public var number: Int
    public var title: String
    public var tags: [String]
    public var creator: String
    public var width: Int
    public var height: Int

    public init(number: Int, title: String, tags: [String], creator: String, width: Int, height: Int) {
        self.number = number
        self.title = title
        self.tags = tags
        self.creator = creator
        self.width = width
        self.height = height
    }

    /// A deterministic record: different queries get different ids, the same query always the same.
    public static func generated(query: String, index: Int) -> FakeRecord {
        let base = Int(stableHash(query.lowercased()) % 90_000) * 1_000 + 10_000_000
        let words = query.lowercased().split(separator: " ").map(String.init)
        let extra = ["red", "blue", "green"][index % 3]
        return FakeRecord(
            number: base + index + 1, title: "\(query) \(index + 1)", tags: words + [extra, "sample"],
            creator: "Creator \(index % 7)", width: 1600 + (index % 4) * 400, height: 1200)
    }

    /// Openverse-style UUID made from the number.
    public var uuid: String {
        let hex = String(number, radix: 16)
        let padded = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
        return "4bc43a04-ef46-4544-a0c1-\(padded.suffix(12))"
    }

    /// FNV-1a: the same across runs, unlike `hashValue`.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}

extension Array where Element == FakeRecord {
    /// The records of a 1-based page.
    func page(_ page: Int, size: Int) -> ArraySlice<FakeRecord> {
        let start = Swift.max(0, (page - 1) * size)
        guard start < count else { return [] }
        return self[start..<Swift.min(count, start + size)]
    }
}
