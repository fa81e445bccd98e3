import Foundation

/// Flickr's REST answers in JSON (docs/sources.md, "Flickr"). Flickr sends the same number as a string in one
/// response and an int in the next (`total`, sizes, `views`, `license`), adds keys over time and omits
/// every extra it has no value for, so everything but a photo's `id` is optional and read leniently.
enum FlickrWire {
    /// Every answer has `stat`; a failed one adds `code` and `message`, with HTTP status 200.
    struct Status: Decodable {
        let stat: String?
        let code: LenientInt?
        let message: LenientString?
    }

    // MARK: - flickr.photos.search

    struct SearchResponse: Decodable {
        let photos: Photos?
    }

    struct Photos: Decodable {
        let page: LenientInt?
        let pages: LenientInt?
        let perpage: LenientInt?
        /// A string in older answers (`"234"`), an int in recent ones (`39182`).
        let total: LenientInt?
        let photo: [Skippable<Photo>]?
    }

    /// One photo with the extras Tessera asks for. getInfo answers are turned into this shape too,
    /// so one mapping serves both methods.
    struct Photo {
        let id: String
        var owner: String?
        var secret: String?
        var server: String?
        var farm: Int?
        var title: String?
        var license: String?
        var description: String?
        /// Unix seconds.
        var dateUpload: String?
        /// `2008-04-26 21:06:26`, in the photo's local time.
        var dateTaken: String?
        var dateTakenGranularity: Int?
        var dateTakenUnknown: Int?
        var ownerName: String?
        var realName: String?
        /// Flickr's normalised tags, space-separated.
        var tags: String?
        var views: Int?
        var originalWidth: Int?
        var originalHeight: Int?
        var originalFormat: String?
        var media: String?
        var pathAlias: String?
        /// getInfo's `photopage` URL.
        var photoPage: String?
        var sizes: [Size] = []
    }

    /// A `url_X` extra with its `width_X`/`height_X`.
    struct Size: Hashable {
        let name: String
        let url: String
        let width: Int?
        let height: Int?
    }

    /// The `url_X` extras, smallest first. `url_w`, `url_h` and `url_k` are not documented extras but
    /// clients see them in answers; they are read when present.
    static let sizeKeys = [
        "url_sq", "url_t", "url_s", "url_q", "url_m", "url_n", "url_w", "url_z", "url_c", "url_l", "url_h", "url_k",
        "url_o",
    ]

    // MARK: - flickr.photos.getInfo

    struct InfoResponse: Decodable {
        let photo: Info?
    }

    /// getInfo nests what search flattens: `owner`, `title`, `dates`, `tags` are objects.
    struct Info: Decodable {
        let id: LenientString
        let secret: LenientString?
        let server: LenientString?
        let farm: LenientInt?
        let dateuploaded: LenientString?
        let license: LenientString?
        let originalformat: LenientString?
        let owner: Owner?
        let title: Content?
        let description: Content?
        let dates: Dates?
        let views: LenientInt?
        let tags: TagList?
        let urls: URLList?
        let media: LenientString?
    }

    struct Owner: Decodable {
        let nsid: LenientString?
        let username: LenientString?
        let realname: LenientString?
        let path_alias: LenientString?
    }

    struct Dates: Decodable {
        let posted: LenientString?
        let taken: LenientString?
        let takengranularity: LenientInt?
        let takenunknown: LenientInt?
    }

    struct TagList: Decodable {
        let tag: [Skippable<Tag>]?
    }

    /// `raw` is the tag as typed ("Golden Gate"); `_content` is Flickr's normalised form ("goldengate"),
    /// the one search's `tags` extra carries.
    struct Tag: Decodable {
        let raw: LenientString?
        let _content: LenientString?
    }

    struct URLList: Decodable {
        let url: [Skippable<Link>]?
    }

    struct Link: Decodable {
        let type: LenientString?
        let _content: LenientString?
    }

    /// Flickr's text wrapper `{"_content": "..."}`; a bare string is accepted too.
    struct Content: Decodable {
        let text: String?

        private enum CodingKeys: String, CodingKey { case _content }

        init(from decoder: any Decoder) throws {
            if let plain = try? decoder.singleValueContainer().decode(LenientString.self), let value = plain.value {
                text = value
            } else {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                text = try container.decodeIfPresent(LenientString.self, forKey: ._content)?.value
            }
        }
    }

    // MARK: - JSONP

    /// The JSON inside `jsonFlickrApi({...})`, which Flickr sends unless `nojsoncallback=1`;
    /// any other body is returned as it is.
    static func unwrappingJSONP(_ body: Data) -> Data {
        let bytes = [UInt8](body)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            bytes[first] != UInt8(ascii: "{"), bytes[first] != UInt8(ascii: "["),
            let open = bytes.firstIndex(of: UInt8(ascii: "(")),
            let close = bytes.lastIndex(of: UInt8(ascii: ")")), open < close,
            bytes[first..<open].allSatisfy(isCallbackName)
        else { return body }
        return Data(bytes[(open + 1)..<close])
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isCallbackName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}

// MARK: - Decoding a search photo

extension FlickrWire.Photo: Decodable {
    /// Field by field, so one field of an unexpected type costs that field, not the photo;
    /// only a photo without an id is unusable (and skipped by `Skippable`).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        func text(_ key: String) -> String? {
            (try? container.decodeIfPresent(LenientString.self, forKey: AnyKey(key)))?.value
        }
        func number(_ key: String) -> Int? {
            (try? container.decodeIfPresent(LenientInt.self, forKey: AnyKey(key)))?.value
        }
        guard let id = text("id"), !id.isEmpty else {
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath, debugDescription: "no photo id"))
        }
        self.init(id: id)
        owner = text("owner")
        secret = text("secret")
        server = text("server")
        farm = number("farm")
        title = text("title")
        license = text("license")
        description = (try? container.decodeIfPresent(FlickrWire.Content.self, forKey: AnyKey("description")))?.text
        dateUpload = text("dateupload")
        dateTaken = text("datetaken")
        dateTakenGranularity = number("datetakengranularity")
        dateTakenUnknown = number("datetakenunknown")
        ownerName = text("ownername")
        tags = text("tags")
        views = number("views")
        originalWidth = number("o_width")
        originalHeight = number("o_height")
        originalFormat = text("originalformat")
        media = text("media")
        pathAlias = text("pathalias")
        sizes = FlickrWire.sizeKeys.compactMap { key in
            guard let url = text(key), !url.isEmpty else { return nil }
            let suffix = key.dropFirst("url_".count)
            return FlickrWire.Size(
                name: key, url: url, width: number("width_\(suffix)"), height: number("height_\(suffix)"))
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension FlickrWire.Info {
    /// The getInfo answer in search's flat shape; `nil` without an id.
    var photo: FlickrWire.Photo? {
        guard let id = id.value, !id.isEmpty else { return nil }
        var photo = FlickrWire.Photo(id: id)
        photo.owner = owner?.nsid?.value
        photo.secret = secret?.value
        photo.server = server?.value
        photo.farm = farm?.value
        photo.title = title?.text
        photo.license = license?.value
        photo.description = description?.text
        photo.dateUpload = dateuploaded?.value ?? dates?.posted?.value
        photo.dateTaken = dates?.taken?.value
        photo.dateTakenGranularity = dates?.takengranularity?.value
        photo.dateTakenUnknown = dates?.takenunknown?.value
        photo.ownerName = owner?.username?.value
        photo.realName = owner?.realname?.value
        photo.tags = tags?.tag?.decoded().compactMap { $0._content?.value ?? $0.raw?.value }.joined(separator: " ")
        photo.views = views?.value
        photo.originalFormat = originalformat?.value
        photo.media = media?.value
        photo.pathAlias = owner?.path_alias?.value
        photo.photoPage = urls?.url?.decoded().first { $0.type?.value == "photopage" }?._content?.value
        return photo
    }
}
