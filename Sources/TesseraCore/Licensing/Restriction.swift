extension Item {
    /// Whether copies of the picture may not be shared (docs/licences.md, "Restricted items"): its licence
    /// allows no reuse (all rights reserved, store artwork, an unknown licence, a picture added from an
    /// address), unless the picture is the person's own (their library, their uploads). A gallery keeps such
    /// an item for reference: an export leaves its file out and a view link shows it as a card.
    public var isRestricted: Bool {
        guard source != .local, source != .upload else { return false }
        return !(license?.allowsReuse ?? false)
    }
}
