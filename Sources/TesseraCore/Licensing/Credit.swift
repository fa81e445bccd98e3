/// What every item in an answer carries about its reuse (`credit` in docs/openapi.yaml): the credit line as
/// text and HTML, the tile's badge and its meaning, the licence's short name and deed, and whether `license=reusable` keeps it. The web app shows
/// these strings rather than writing its own, so a credit reads the same on screen, in an export and in the
/// CLI.
public struct Credit: Sendable, Hashable, Encodable {
    /// "CC BY", "CC0", "PD", "Pixabay", "©", "?".
    public var badge: String
    /// The licence's deed, its human-readable summary, when it has one.
    public var deed: String?
    /// One `<p class="attribution">`, every value escaped.
    public var html: String
    /// "CC BY 2.0: you may reuse it with credit".
    public var label: String
    /// The licence's short name as its licensor writes it: "CC BY 2.0", "CC0 1.0", "All rights reserved".
    public var licenseName: String
    /// Whether the licence lets a person reuse the picture at all (`License.allowsReuse`).
    public var reusable: Bool
    public var text: String

    public init(item: Item) {
        let attribution = Attribution(item: item)
        let license = attribution.effectiveLicense
        let naming = license.naming
        // The clause read once for both forms: every item of every answer is credited.
        let clause = attribution.licenseClause(naming)
        badge = naming.badge
        deed = naming.deed
        html = attribution.html(clause)
        label = naming.label
        licenseName = naming.name
        reusable = license.allowsReuse
        text = attribution.text(clause)
    }
}

extension Item {
    public var credit: Credit { Credit(item: self) }

    private enum EncodingKeys: String, CodingKey {
        case id, source, kind, title, tags, creator, credit, license, pageURL, thumbnail, preview, full, sizes,
            metadata, mediaPreview, listing
    }

    /// The stored fields and the `credit` read from them; decoding ignores `credit` (it is always read again).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EncodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(source, forKey: .source)
        try container.encode(kind, forKey: .kind)
        try container.encode(title, forKey: .title)
        try container.encode(tags, forKey: .tags)
        try container.encodeIfPresent(creator, forKey: .creator)
        try container.encode(credit, forKey: .credit)
        try container.encodeIfPresent(license, forKey: .license)
        try container.encodeIfPresent(pageURL, forKey: .pageURL)
        try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
        try container.encodeIfPresent(preview, forKey: .preview)
        try container.encodeIfPresent(full, forKey: .full)
        try container.encode(sizes, forKey: .sizes)
        try container.encode(metadata, forKey: .metadata)
        try container.encodeIfPresent(mediaPreview, forKey: .mediaPreview)
        try container.encodeIfPresent(listing, forKey: .listing)
    }
}
