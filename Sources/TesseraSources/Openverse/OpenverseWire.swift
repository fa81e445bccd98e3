/// Openverse's JSON (`api/api/serializers/media_serializers.py` and `image_serializers.py`).
///
/// Everything but `id` is optional: the serializer marks a dozen fields nullable, the `related`
/// answers leave whole fields out, and `unstable__*` fields come and go.
enum OpenverseWire {
    struct SearchResponse: Decodable {
        /// Leniently: a count out of `Int`'s range is no count, not an unreadable page.
        let result_count: LenientInt?
        let page_count: LenientInt?
        let page_size: LenientInt?
        let page: LenientInt?
        let results: [Skippable<Image>]
    }

    struct Image: Decodable {
        let id: String
        let title: String?
        let indexed_on: String?
        let foreign_landing_url: String?
        let url: String?
        let creator: String?
        let creator_url: String?
        let license: String?
        let license_version: String?
        let license_url: String?
        let provider: String?
        let source: String?
        let category: String?
        let filesize: LenientInt?
        let filetype: String?
        let tags: [Skippable<Tag>]?
        let attribution: String?
        let fields_matched: [Skippable<String>]?
        let mature: Bool?
        let height: LenientInt?
        let width: LenientInt?
        let thumbnail: String?
        let detail_url: String?
        let related_url: String?
        let unstable__sensitivity: [Skippable<String>]?
    }

    /// `accuracy` is null for tags people wrote and a confidence for machine tags.
    struct Tag: Decodable {
        let name: String
        let accuracy: Double?
        let unstable__provider: String?
    }

    /// Every error body Openverse sends: DRF's `{"detail": "..."}`, validation errors as
    /// `{"detail": {"field": ["message"]}}`, and the older `{"error", "detail", "fields"}`.
    struct ErrorBody: Decodable {
        let error: String?
        let detail: Detail?
        let fields: [String]?
    }

    /// A DRF error detail: a string, a list of details, or details keyed by field.
    indirect enum Detail: Decodable {
        case text(String)
        case list([Detail])
        case fields([(String, Detail)])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let list = try? container.decode([Detail].self) {
                self = .list(list)
            } else {
                let keyed = try decoder.container(keyedBy: AnyKey.self)
                // Sorted, so the same error always reads the same way.
                let keys = keyed.allKeys.sorted { $0.stringValue < $1.stringValue }
                self = .fields(try keys.map { ($0.stringValue, try keyed.decode(Detail.self, forKey: $0)) })
            }
        }

        /// `page: Ensure this value is less than or equal to 20.`
        var message: String {
            switch self {
            case .text(let text): text
            case .list(let list): list.map(\.message).joined(separator: " ")
            case .fields(let fields): fields.map { "\($0.0): \($0.1.message)" }.joined(separator: "; ")
            }
        }

        /// The fields a validation error names.
        var fieldNames: [String] {
            if case .fields(let fields) = self { return fields.map(\.0) }
            return []
        }
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        let intValue: Int? = nil
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
