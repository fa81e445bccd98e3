/// Least-recently-used entries bounded by their total cost (bytes), not by their count.
///
/// A value type with O(1) lookup, insert and eviction: a dictionary of slots in an array that also holds a
/// doubly linked list (by index) from the most to the least recently used. The caches wrap it in a lock.
struct CostLRU<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value
        var cost: Int
        var newer: Int?
        var older: Int?
    }

    let capacity: Int
    private(set) var totalCost = 0
    private var slots: [Slot?] = []
    private var free: [Int] = []
    private var index: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { index.count }

    /// The value, now the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let position = index[key] else { return nil }
        moveToFront(position)
        return slots[position]!.value
    }

    /// The value without touching the order.
    func peek(_ key: Key) -> Value? {
        index[key].map { slots[$0]!.value }
    }

    /// Stores `value` as the most recently used and returns what had to go to stay within `capacity`.
    /// An entry that alone costs more than the capacity is not stored (and is returned).
    @discardableResult
    mutating func insert(_ value: Value, for key: Key, cost: Int) -> [(key: Key, value: Value)] {
        if let position = index[key] { remove(at: position) }
        guard cost <= capacity else { return [(key, value)] }
        let slot = Slot(key: key, value: value, cost: cost, newer: nil, older: newest)
        let position: Int
        if let reused = free.popLast() {
            slots[reused] = slot
            position = reused
        } else {
            slots.append(slot)
            position = slots.count - 1
        }
        if let newest { slots[newest]!.newer = position }
        newest = position
        if oldest == nil { oldest = position }
        index[key] = position
        totalCost += cost
        var evicted: [(key: Key, value: Value)] = []
        while totalCost > capacity, let oldest {
            let slot = slots[oldest]!
            remove(at: oldest)
            evicted.append((slot.key, slot.value))
        }
        return evicted
    }

    @discardableResult
    mutating func removeValue(for key: Key) -> Value? {
        guard let position = index[key] else { return nil }
        let value = slots[position]!.value
        remove(at: position)
        return value
    }

    /// Keys from the least to the most recently used.
    var keysOldestFirst: [Key] {
        var keys: [Key] = []
        var cursor = oldest
        while let position = cursor {
            keys.append(slots[position]!.key)
            cursor = slots[position]!.newer
        }
        return keys
    }

    private mutating func moveToFront(_ position: Int) {
        guard newest != position else { return }
        unlink(position)
        slots[position]!.older = newest
        slots[position]!.newer = nil
        if let newest { slots[newest]!.newer = position }
        newest = position
        if oldest == nil { oldest = position }
    }

    private mutating func unlink(_ position: Int) {
        let slot = slots[position]!
        if let newer = slot.newer { slots[newer]!.older = slot.older } else { newest = slot.older }
        if let older = slot.older { slots[older]!.newer = slot.newer } else { oldest = slot.newer }
    }

    private mutating func remove(at position: Int) {
        unlink(position)
        let slot = slots[position]!
        index[slot.key] = nil
        totalCost -= slot.cost
        slots[position] = nil
        free.append(position)
    }
}
