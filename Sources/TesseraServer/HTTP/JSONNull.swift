import Foundation

/// Finds a JSON `null` in a request body whose schema (docs/openapi.yaml) allows none anywhere, such as a
/// gallery item to add. Swift's decoders read `null` as an absent optional, so without this a body like
/// `{"url": "…", "index": null}` or an item with `"preview": null` would be taken as if the field were left
/// out, where the document calls it malformed (400).
enum JSONNull {
    /// The first `null`'s place, like `item.listing.screenshots.0.height`, or nil when there is none (or
    /// the body is no JSON at all: the decoder says what is wrong with it). Only members named in `fields` are
    /// looked at: the document allows other members, which the server ignores, null or not.
    static func path(in data: Data, fields: Set<String>) -> String? {
        guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        return path(in: value, at: [], fields: fields)
    }

    /// The members of an add-item body and of the `Item` in it (docs/openapi.yaml, `addGalleryItem`, `Item`).
    static let addItemFields: Set<String> = [
        "item", "url", "index", "allowNearDuplicate", "id", "source", "kind", "title", "tags", "creator", "name",
        "license", "version", "allowsCommercialUse", "allowsModification", "requiresCredit", "pageURL",
        "thumbnail", "preview", "full", "width", "height", "sizes", "metadata", "label", "value", "mediaPreview",
        "listing", "price", "rating", "ratingCount", "description", "screenshots",
    ]

    private static func path(in value: Any, at path: [String], fields: Set<String>) -> String? {
        switch value {
        case is NSNull:
            return path.isEmpty ? "the body" : path.joined(separator: ".")
        case let object as [String: Any]:
            for key in object.keys.sorted() where fields.contains(key) {
                if let found = Self.path(in: object[key]!, at: path + [key], fields: fields) { return found }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = Self.path(in: element, at: path + [String(index)], fields: fields) { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
