import TesseraCore

/// Flickr applies licences itself (`license`, a list of its licence ids), and every search already asks for
/// photos only (`content_type=1`, `media=photos`), so `type=photo` is Flickr's own too. Its dimension,
/// orientation and colour parameters are not in the documented method and the stand-in cannot vouch for
/// them, so orientation and size are checked by Tessera on the sizes each photo names, and colour,
/// illustrations and vectors (Flickr's documented content types are photos, screenshots and "other") are
/// unsupported (docs/filters.md).
extension FlickrClient {
    public func nativeFilters(_ filters: SearchFilters, in section: SectionID) -> Set<SearchFilters.Name> {
        filters.type == .photo ? [.license, .type] : [.license]
    }

    /// `license=4,5,9,10`: every Flickr licence the filter allows; `nil` when it allows none.
    static func filterParameters(_ filters: SearchFilters) -> [(String, String)]? {
        guard let license = filters.license else { return [] }
        let ids = Licenses.flickrIDs(matching: license.allows)
        guard !ids.isEmpty else { return nil }
        return [("license", ids.map(String.init).joined(separator: ","))]
    }
}
