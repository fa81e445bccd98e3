/// MediaWiki's `action=query` JSON with `prop=imageinfo`, in either format version.
///
/// formatversion=1 (the default, and what mirrors and old recordings have) keys `pages` by page id
/// in no particular order and writes booleans as `""`-present/absent; formatversion=2 uses an array
/// and `true`. Both decode to the same types here, and every field but the list shapes is optional.
enum WikimediaWire {
    struct Response: Decodable {
        let error: APIError?
        let query: Query?
        let `continue`: Continue?
    }

    /// `{"error": {"code": "ratelimited", "info": "..."}}`, sent with HTTP 200.
    struct APIError: Decodable {
        let code: String?
        let info: String?
    }

    struct Continue: Decodable {
        let gsroffset: LenientInt?
    }

    struct Query: Decodable {
        /// In search order once sorted by `index`; page id order otherwise.
        let pages: [Page]

        enum CodingKeys: String, CodingKey { case pages }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if !container.contains(.pages) || (try? container.decodeNil(forKey: .pages)) == true {
                pages = []
            } else if let list = try? container.decode([Skippable<Page>].self, forKey: .pages) {
                pages = list.decoded()
            } else {
                let keyed = try container.decode([String: Skippable<Page>].self, forKey: .pages)
                pages = keyed.values.compactMap(\.value).sorted { ($0.pageid ?? 0) < ($1.pageid ?? 0) }
            }
        }
    }

    struct Page: Decodable {
        /// Absent for a title that does not exist.
        let pageid: Int?
        let ns: Int?
        let title: String?
        /// The search rank, 1-based and counting from `gsroffset`: only with a generator.
        let index: Int?
        let missing: Bool
        let invalid: Bool
        let imageinfo: [Skippable<ImageInfo>]?

        enum CodingKeys: String, CodingKey { case pageid, ns, title, index, missing, invalid, imageinfo }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            pageid = try container.decodeIfPresent(LenientInt.self, forKey: .pageid)?.value
            ns = try container.decodeIfPresent(LenientInt.self, forKey: .ns)?.value
            title = try container.decodeIfPresent(String.self, forKey: .title)
            index = try container.decodeIfPresent(LenientInt.self, forKey: .index)?.value
            missing = Self.flag(container, .missing)
            invalid = Self.flag(container, .invalid)
            imageinfo = try container.decodeIfPresent([Skippable<ImageInfo>].self, forKey: .imageinfo)
        }

        /// A formatversion=1 flag is present (`""`) or absent; formatversion=2 writes `true`/`false`.
        private static func flag(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> Bool {
            guard container.contains(key) else { return false }
            return (try? container.decode(Bool.self, forKey: key)) ?? true
        }

        var info: ImageInfo? { imageinfo?.decoded().first }
    }

    struct ImageInfo: Decodable {
        let size: LenientInt?
        let width: LenientInt?
        let height: LenientInt?
        let url: String?
        let descriptionurl: String?
        let descriptionshorturl: String?
        let thumburl: String?
        let thumbwidth: LenientInt?
        let thumbheight: LenientInt?
        let mime: String?
        let extmetadata: ExtMetadata?
    }

    /// `extmetadata`: an object of `{"value", "source", "hidden"}` entries, or `[]` when a file has none
    /// (PHP serialises an empty array as a list).
    struct ExtMetadata: Decodable {
        let entries: [String: Entry]

        init(entries: [String: Entry] = [:]) {
            self.entries = entries
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let object = try? container.decode([String: Skippable<Entry>].self) {
                entries = object.compactMapValues(\.value)
            } else {
                entries = [:]
            }
        }

        subscript(_ key: String) -> String? { entries[key]?.value }
    }

    struct Entry: Decodable {
        /// Usually HTML text; `CommonsMetadataExtension` is a number. With `iiextmetadatamultilang`
        /// it would be an object of languages, which reads as no value.
        let value: String?
        let source: String?
        /// Present (`""` or `true`) for entries the file page does not show in its summary.
        let hidden: Bool

        enum CodingKeys: String, CodingKey { case value, source, hidden }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            value = (try? container.decodeIfPresent(LenientString.self, forKey: .value))?.value
            source = try? container.decodeIfPresent(String.self, forKey: .source)
            hidden = container.contains(.hidden) && (try? container.decode(Bool.self, forKey: .hidden)) != false
        }
    }
}
