/// Remembers which items each recent search has already shown, so a page never repeats an item
/// from an earlier page of the same search (services shift results between requests).
///
/// Bounded: the least recently used searches are forgotten past `capacity`.
actor SeenItems {
    private struct Key: Hashable {
        let section: SectionID
        let query: String
    }

    private var firstPage: [Key: [ItemID: Int]] = [:]
    private var recency: [Key] = []
    private let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// Drops duplicates inside the page and items first shown on an earlier page; records the rest.
    func filter(_ items: [Item], section: SectionID, query: String, page: Int) -> [Item] {
        let key = Key(section: section, query: query.lowercased())
        var seen = firstPage[key] ?? [:]
        var onThisPage = Set<ItemID>()
        var kept: [Item] = []
        for item in items {
            guard onThisPage.insert(item.id).inserted else { continue }
            if let first = seen[item.id], first < page { continue }
            seen[item.id] = min(seen[item.id] ?? page, page)
            kept.append(item)
        }
        firstPage[key] = seen
        touch(key)
        return kept
    }

    private func touch(_ key: Key) {
        if let index = recency.firstIndex(of: key) { recency.remove(at: index) }
        recency.append(key)
        if recency.count > capacity {
            let evicted = recency.removeFirst()
            firstPage[evicted] = nil
        }
    }
}
