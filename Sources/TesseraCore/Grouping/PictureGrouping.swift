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
/// twice would be. docs/duplicates.md has the threshold's measurement.
public enum PictureGrouping {
    /// The most bits two hashes may differ by and still be one picture: measured on the sample photos'
    /// copies (docs/duplicates.md, "Measured: the threshold"; `PerceptualHashMeasurementTests`).
    public static let threshold = 14

    /// The groups of two or more items, in the order of their first member on the page. An id listed twice
    /// counts once. `identities`: `PictureIdentity.keys` already read for some items (a caller that read each
    /// section's while waiting for slower ones); the others' are read here.
    public static func groups(
        of items: [Item], hashes: [ItemID: PerceptualHash], identities: [ItemID: [String]] = [:],
        threshold: Int = threshold
    ) -> [PictureGroup] {
        var grouper = PictureGrouper(threshold: threshold)
        grouper.add(items, part: 0, hashes: hashes, identities: identities)
        return grouper.groups()
    }

    /// How much a licence allows, for choosing a group's representative (`LicenseNaming.permissiveness`):
    /// CC0 and the public-domain marks, then Pixabay's licence, CC BY, CC BY-SA and the GFDL, the
    /// non-commercial and no-derivatives variants, all rights reserved, and last an unknown licence (or none),
    /// which is never guessed permissive.
    public static func permissiveness(_ license: License?) -> Int {
        LicenseNames.naming(license).permissiveness
    }
}

/// Union-find over 0..<count, with path halving and union by size; `append` adds one more element.
struct DisjointSets {
    private var parent: [Int]
    private var size: [Int]

    init(count: Int = 0) {
        parent = Array(0..<count)
        size = Array(repeating: 1, count: count)
    }

    mutating func append() {
        parent.append(parent.count)
        size.append(1)
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
