import Synchronization

/// Remembers which items each recent search has already shown, so a page never repeats an item
/// from an earlier page of the same search (services shift results between requests).
///
/// Bounded: the least recently used searches are forgotten past `capacity`. A lock rather than an actor: it
/// is asked once per section on the answer's path, and a hop to an actor cost more than the work.
final class SeenItems: Sendable {
    private struct Key: Hashable {
        let section: SectionID
        let query: String
    }

    private struct State {
        var firstPage: [Key: [ItemID: Int]] = [:]
        var recency: [Key] = []
    }

    private let state = Mutex(State())
    private let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// Drops duplicates inside the page and items first shown on an earlier page; records the rest.
    func filter(_ items: [Item], section: SectionID, query: String, page: Int) -> [Item] {
        let key = Key(section: section, query: query.lowercased())
        return state.withLock { state in filter(items, key: key, page: page, in: &state) }
    }

    private func filter(_ items: [Item], key: Key, page: Int, in state: inout State) -> [Item] {
        var seen = state.firstPage[key] ?? [:]
        var onThisPage = Set<ItemID>()
        var kept: [Item] = []
        for item in items {
            guard onThisPage.insert(item.id).inserted else { continue }
            if let first = seen[item.id], first < page { continue }
            seen[item.id] = min(seen[item.id] ?? page, page)
            kept.append(item)
        }
        state.firstPage[key] = seen
        touch(key, in: &state)
        return kept
    }

    private func touch(_ key: Key, in state: inout State) {
        if let index = state.recency.firstIndex(of: key) { state.recency.remove(at: index) }
        state.recency.append(key)
        if state.recency.count > capacity {
            let evicted = state.recency.removeFirst()
            state.firstPage[evicted] = nil
        }
    }
}
