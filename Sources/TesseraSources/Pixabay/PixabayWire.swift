/// Pixabay's JSON as documented at pixabay.com/api/docs, every field optional but `id`:
/// the docs say keys may be added at any time and some only come with full API access.
enum PixabayWire {
    struct SearchResponse: Decodable {
        /// Leniently: a total out of `Int`'s range is no total, not an unreadable page.
        let total: LenientInt?
        let totalHits: LenientInt?
        let hits: [Skippable<Hit>]
    }

    struct Hit: Decodable {
        let id: Int
        let pageURL: String?
        let type: String?
        let tags: String?
        let previewURL: String?
        let previewWidth: Int?
        let previewHeight: Int?
        let webformatURL: String?
        let webformatWidth: Int?
        let webformatHeight: Int?
        let largeImageURL: String?
        let fullHDURL: String?
        let imageURL: String?
        let vectorURL: String?
        let imageWidth: Int?
        let imageHeight: Int?
        let imageSize: Int?
        let views: Int?
        let downloads: Int?
        let collections: Int?
        let favorites: Int?
        let likes: Int?
        let comments: Int?
        let user_id: Int?
        let user: String?
        let userImageURL: String?
        let userURL: String?
        let isAiGenerated: Bool?
        let noAiTraining: Bool?
    }
}
