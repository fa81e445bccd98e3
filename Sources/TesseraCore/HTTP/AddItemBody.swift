/// `POST /api/galleries/{id}/items`' JSON body (docs/openapi.yaml, `addGalleryItem`): a search result or an
/// address, and where it goes. Here rather than beside the route so the JSON decoders' fuzz target reads the
/// same type the server does.
public struct AddItemBody: Decodable, Equatable, Sendable {
    public let item: Item?
    public let url: String?
    public let index: Int?
    /// Add even when the gallery holds the same picture (else 409 `near_duplicate`).
    public let allowNearDuplicate: Bool?

    private enum CodingKeys: String, CodingKey { case item, url, index, allowNearDuplicate }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        item = try container.decodeIfPresent(Item.self, forKey: .item)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        index = try container.decodeIfPresent(Int.self, forKey: .index)
        // A boolean when present, as the document says: `null` is refused too, not read as absent.
        allowNearDuplicate =
            container.contains(.allowNearDuplicate)
            ? try container.decode(Bool.self, forKey: .allowNearDuplicate) : nil
    }
}
