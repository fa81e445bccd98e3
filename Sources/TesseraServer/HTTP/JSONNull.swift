import Foundation

/// Finds a JSON `null` in a request body whose schema (docs/openapi.yaml) allows none anywhere, such as a
/// gallery item to add. Swift's decoders read `null` as an absent optional, so without this a body like
/// `{"url": "…", "index": null}` or an item with `"preview": null` would be taken as if the field were left
/// out, where the document calls it malformed (400).
enum JSONNull {
    /// The members a body's schema names, object by object: only those are looked at, since the document
    /// allows other members anywhere, which the server ignores, null or not (an unknown `item` inside a
    /// metadata entry is not the body's `item`).
    indirect enum Shape: Sendable {
        /// A value with no members the server reads (a string, a number, a boolean).
        case value
        case object([String: Shape])
        case array(Shape)
    }

    /// The first `null`'s place, like `item.listing.screenshots.0.height`, or nil when there is none (or
    /// the body is no JSON at all: the decoder says what is wrong with it).
    static func path(in data: Data, shape: Shape) -> String? {
        guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        return path(in: value, at: [], shape: shape)
    }

    /// An add-item body and the `Item` in it (docs/openapi.yaml, `addGalleryItem`, `Item`, `Image`, `Link`,
    /// `License`, `ItemCredit`, `MediaPreview`, `StoreListing`).
    static let addItemBody: Shape = {
        let image = Shape.object(["url": .value, "width": .value, "height": .value])
        let item = Shape.object([
            "id": .value, "source": .value, "kind": .value, "title": .value, "tags": .array(.value),
            "creator": .object(["name": .value, "url": .value]),
            // Read only: the server reads it again from the item, but a body may carry one back.
            "credit": .object([
                "badge": .value, "deed": .value, "html": .value, "label": .value, "licenseName": .value,
                "reusable": .value, "text": .value,
            ]),
            "license": .object([
                "id": .value, "name": .value, "version": .value, "url": .value, "allowsCommercialUse": .value,
                "allowsModification": .value, "requiresCredit": .value,
            ]),
            "pageURL": .value, "thumbnail": image, "preview": image, "full": image,
            "sizes": .array(.object(["name": .value, "url": .value, "width": .value, "height": .value])),
            "metadata": .array(.object(["label": .value, "value": .value])),
            "mediaPreview": .object(["url": .value, "kind": .value]),
            "listing": .object([
                "price": .value, "rating": .value, "ratingCount": .value, "description": .value,
                "screenshots": .array(image),
            ]),
        ])
        return .object(["item": item, "url": .value, "index": .value, "allowNearDuplicate": .value])
    }()

    private static func path(in value: Any, at path: [String], shape: Shape) -> String? {
        if value is NSNull { return path.isEmpty ? "the body" : path.joined(separator: ".") }
        switch (shape, value) {
        case (.object(let members), let object as [String: Any]):
            for key in object.keys.sorted() {
                guard let member = members[key],
                    let found = Self.path(in: object[key]!, at: path + [key], shape: member)
                else { continue }
                return found
            }
            return nil
        case (.array(let element), let array as [Any]):
            for (index, item) in array.enumerated() {
                if let found = Self.path(in: item, at: path + [String(index)], shape: element) { return found }
            }
            return nil
        default:
            // A value of another type than the schema's is the decoder's to refuse.
            return nil
        }
    }
}
