/// Copies of one picture among a page's items (from several sections), so the picture can be shown once.
public struct PictureGroup: Sendable, Hashable, Codable {
    /// The copy to show: the one whose licence allows the most (`PictureGrouping.permissiveness`).
    public var representative: ItemID
    /// Every copy, the representative first, then in the page's order.
    public var members: [ItemID]
    /// Whether any two copies were joined by their look (perceptual hashes) rather than by identity alone.
    public var byLook: Bool

    public init(representative: ItemID, members: [ItemID], byLook: Bool) {
        self.representative = representative
        self.members = members
        self.byLook = byLook
    }
}

/// Groups items that are the same picture: first by identity (`PictureIdentity`: a photo's id at the
/// service that holds it), then by look (perceptual hashes at most `threshold` bits apart). Items without a
/// hash join only by identity; only images are grouped (two editions of an album may share a cover).
///
/// Joining is transitive: A like B and B like C puts all three together, as the same photo re-published
/// twice would be. docs/filters.md has the threshold's measurement.
public enum PictureGrouping {
    /// The most bits two hashes may differ by and still be one picture: measured on the sample photos'
    /// copies (docs/filters.md, "One picture, shown once"; `PerceptualHashMeasurementTests`).
    public static let threshold = 14

    /// The groups of two or more items, in the order of their first member on the page. An id listed twice
    /// counts once. `identities`: `PictureIdentity.keys` already read for some items (a caller that read each
    /// section's while waiting for slower ones); the others' are read here.
    public static func groups(
        of items: [Item], hashes: [ItemID: PerceptualHash], identities: [ItemID: [String]] = [:],
        threshold: Int = threshold
    ) -> [PictureGroup] {
        // The images, each id once, as positions in `items`: an `Item` is large, and copying each one (its
        // strings, metadata and sizes retained) was a good part of the time (docs/filters.md, "Speed").
        var seen = Set<ItemID>(minimumCapacity: items.count)
        var positions: [Int] = []
        for position in items.indices where items[position].kind == .image && seen.insert(items[position].id).inserted {
            positions.append(position)
        }
        let unique = IndexedItems(items: items, positions: positions)
        var sets = DisjointSets(count: unique.count)
        // Identity: every key an item names joins it with the first item that named that key.
        var firstWithKey: [String: Int] = [:]
        for index in unique.indices {
            for key in identities[unique[index].id] ?? PictureIdentity.keys(of: unique[index]) {
                if let first = firstWithKey[key] { sets.join(first, index) } else { firstWithKey[key] = index }
            }
        }
        // Look: every pair of hashed items (a page holds at most a few hundred; see the benchmark).
        let hashed = unique.indices.compactMap { index in hashes[unique[index].id].map { (index, $0.bits) } }
        var joinedByLook = Set<Int>()
        for first in hashed.indices {
            let (a, bitsA) = hashed[first]
            for second in hashed.index(after: first)..<hashed.endIndex {
                let (b, bitsB) = hashed[second]
                guard (bitsA ^ bitsB).nonzeroBitCount <= threshold else { continue }
                if sets.find(a) != sets.find(b) { joinedByLook.insert(a) }
                sets.join(a, b)
            }
        }
        var members: [Int: [Int]] = [:]
        var roots: [Int] = []
        for index in unique.indices {
            let root = sets.find(index)
            if members[root] == nil { roots.append(root) }
            members[root, default: []].append(index)
        }
        let lookRoots = Set(joinedByLook.map { sets.find($0) })
        return roots.compactMap { root -> PictureGroup? in
            guard let indices = members[root], indices.count > 1 else { return nil }
            let best = indices.max { isPreferred(unique[$1], over: unique[$0], $1 < $0) } ?? indices[0]
            let ordered = [best] + indices.filter { $0 != best }
            return PictureGroup(
                representative: unique[best].id, members: ordered.map { unique[$0].id },
                byLook: lookRoots.contains(root))
        }
    }

    /// How much a licence allows, for choosing a group's representative: commercial use counts most, then
    /// modification, then needing no credit. An unknown licence (or none) allows nothing: it is never
    /// guessed permissive.
    public static func permissiveness(_ license: License?) -> Int {
        guard let license, license.id != "unknown" else { return 0 }
        return 1 + (license.allowsCommercialUse ? 4 : 0) + (license.allowsModification ? 2 : 0)
            + (license.requiresCredit ? 0 : 1)
    }

    /// Whether `item` is a better representative than `other`: a more permissive licence; on a tie the
    /// photo's own service rather than Openverse's copy of it; then the earlier on the page.
    private static func isPreferred(_ item: Item, over other: Item, _ earlier: Bool) -> Bool {
        let (mine, theirs) = (permissiveness(item.license), permissiveness(other.license))
        if mine != theirs { return mine > theirs }
        let (ownService, otherOwn) = (item.source != .openverse, other.source != .openverse)
        if ownService != otherOwn { return ownService }
        return earlier
    }
}

/// The items at `positions` of `items`, read in place (never copied out).
private struct IndexedItems {
    let items: [Item]
    let positions: [Int]

    var count: Int { positions.count }
    var indices: Range<Int> { positions.indices }
    subscript(index: Int) -> Item { _read { yield items[positions[index]] } }
}

/// Union-find over 0..<count, with path halving and union by size.
struct DisjointSets {
    private var parent: [Int]
    private var size: [Int]

    init(count: Int) {
        parent = Array(0..<count)
        size = Array(repeating: 1, count: count)
    }

    mutating func find(_ element: Int) -> Int {
        var element = element
        while parent[element] != element {
            parent[element] = parent[parent[element]]
            element = parent[element]
        }
        return element
    }

    mutating func join(_ a: Int, _ b: Int) {
        var (rootA, rootB) = (find(a), find(b))
        guard rootA != rootB else { return }
        if size[rootA] < size[rootB] { swap(&rootA, &rootB) }
        parent[rootB] = rootA
        size[rootA] += size[rootB]
    }
}
