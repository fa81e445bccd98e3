/// `PictureGrouping.groups`, fed a part of the page at a time: a search's sections as each arrives, while
/// slower sources are still working, so after the slowest only its own items are joined (docs/search.md,
/// "The slowest section's path"). The parts may come in any order; `part` is each one's place on the page.
///
/// The result does not depend on the order of the parts: the groups are the connected pieces of "shares an
/// identity key or looks alike", and a group is `byLook` exactly when it holds pictures of two or more
/// identities (joining them took a look). Only the representative and the members' order read the page's
/// order, and they are chosen at the end.
public struct PictureGrouper: Sendable {
    /// What the end needs of an image: its place on the page and what choosing the representative reads.
    private struct Member: Sendable {
        var id: ItemID
        var position: Int
        var permissiveness: Int
    }

    private let threshold: Int
    private var members: [Member] = []
    private var indexByID: [ItemID: Int] = [:]
    /// Identity and look joins.
    private var sets = DisjointSets()
    /// Identity joins alone, to tell which groups took a look to join.
    private var identitySets = DisjointSets()
    private var firstWithKey: [String: Int] = [:]
    private var hashed: [(index: Int, bits: UInt64)] = []

    public init(threshold: Int = PictureGrouping.threshold) {
        self.threshold = threshold
    }

    /// Adds one part of the page: `items` in their order, `part` its place among the parts (lower first).
    /// `hashes` and `identities` as `PictureGrouping.groups` takes them. An id already added keeps its first
    /// reading and takes the earlier of the two places.
    public mutating func add(
        _ items: [Item], part: Int, hashes: [ItemID: PerceptualHash], identities: [ItemID: [String]] = [:]
    ) {
        for (offset, item) in items.enumerated() where item.kind == .image {
            let position = part << 32 | offset
            if let known = indexByID[item.id] {
                members[known].position = min(members[known].position, position)
                continue
            }
            let index = members.count
            indexByID[item.id] = index
            members.append(
                Member(
                    id: item.id, position: position, permissiveness: PictureGrouping.permissiveness(item.license)))
            sets.append()
            identitySets.append()
            for key in identities[item.id] ?? PictureIdentity.keys(of: item) {
                if let first = firstWithKey[key] {
                    sets.join(first, index)
                    identitySets.join(first, index)
                } else {
                    firstWithKey[key] = index
                }
            }
            if let bits = hashes[item.id]?.bits {
                for other in hashed where (other.bits ^ bits).nonzeroBitCount <= threshold {
                    sets.join(other.index, index)
                }
                hashed.append((index, bits))
            }
        }
    }

    /// The groups of two or more items, in the order of their first member on the page.
    public func groups() -> [PictureGroup] {
        var sets = sets
        var identitySets = identitySets
        var byRoot: [Int: [Int]] = [:]
        for index in members.indices { byRoot[sets.find(index), default: []].append(index) }
        var groups: [(first: Int, group: PictureGroup)] = []
        for indices in byRoot.values where indices.count > 1 {
            let ordered = indices.sorted { members[$0].position < members[$1].position }
            let best = ordered.max { isPreferred(members[$1], over: members[$0]) } ?? ordered[0]
            let identities = Set(ordered.map { identitySets.find($0) })
            let group = PictureGroup(
                representative: members[best].id,
                members: ([best] + ordered.filter { $0 != best }).map { members[$0].id },
                byLook: identities.count > 1)
            groups.append((members[ordered[0]].position, group))
        }
        return groups.sorted { $0.first < $1.first }.map(\.group)
    }

    /// Whether `member` is a better representative than `other`: a more permissive licence; on a tie the
    /// earlier on the page, which in the `all` scope is the earlier section.
    private func isPreferred(_ member: Member, over other: Member) -> Bool {
        if member.permissiveness != other.permissiveness { return member.permissiveness > other.permissiveness }
        return member.position < other.position
    }
}
