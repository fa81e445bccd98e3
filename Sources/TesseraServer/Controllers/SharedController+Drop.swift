import Foundation
import HTTPTypes
import Hummingbird
import TesseraCore
import TesseraGalleries

/// `POST /api/shared/{slug}/items`: adding through a drop link, by the same path as the gallery's own adds
/// (the guarded fetcher, the size and pixel caps), always at the end; and what a visitor is shown.
extension SharedController {
    func drop(_ request: Request, _ context: Context) async throws -> Response {
        // What is wrong with the request is said first (400), before the link (404/410/401/403/429).
        let contentType = request.headers[.contentType] ?? ""
        let upload: MultipartForm.Part?
        let url: String?
        if contentType.lowercased().hasPrefix("multipart/form-data") {
            let body = try await GalleriesController<Context>.collect(
                request, limit: maxUploadBytes + 64 * 1024, what: "The upload")
            guard let form = MultipartForm(contentType: contentType, body: body), let file = form.part(named: "file")
            else {
                throw GalleryError.invalidBody(MultipartForm.uploadHint)
            }
            guard file.data.count <= maxUploadBytes else {
                throw GalleryError.tooLarge(what: "The upload", limit: maxUploadBytes)
            }
            (upload, url) = (file, nil)
        } else {
            let body = try await GalleriesController<Context>.json(DropBody.self, request)
            guard body.url.count <= 4096 else {
                throw GalleryError.invalidBody("That address is longer than 4,096 characters.")
            }
            (upload, url) = (nil, body.url)
        }
        let (link, moment) = try await unlocked(request, context)
        try await galleries.takeDrop(through: link, at: moment)
        let viewer = GalleryViewer.link(LinkGrant(link))
        let added =
            if let upload {
                try await galleries.add(upload: upload.data, fileName: upload.fileName, to: link.gallery, by: viewer)
            } else {
                try await galleries.add(url: url ?? "", to: link.gallery, by: viewer)
            }
        try await galleries.recordDrop(through: link)
        return JSONBody.response(DroppedJSON(item: Self.visible(added.item, slug: link.slug)), status: .created)
    }

    // MARK: - Input and output

    struct DropBody: Decodable { let url: String }
    struct UnlockBody: Decodable { let password: String }

    struct DroppedJSON: Encodable {
        let item: SharedItem
    }

    /// `SharedGallery` in docs/openapi.yaml: the name and count, and the items when the link shows them.
    struct SharedJSON: Encodable {
        struct Summary: Encodable {
            let name: String
            let itemCount: Int
        }
        let kind: String
        let gallery: Summary
        let expiresAt: String?
        let items: [SharedItem]?
        let perHour: Int?
        let showItems: Bool?

        init(_ link: GalleryLink, _ gallery: Gallery) {
            kind = link.kind.rawValue
            self.gallery = Summary(name: gallery.name, itemCount: gallery.itemCount)
            expiresAt = link.expiresAt.map(RFC3339.text)
            items = link.showsItems ? (gallery.items ?? []).map { SharedController.visible($0, slug: link.slug) } : nil
            perHour = link.kind == .drop ? link.perHour : nil
            showItems = link.kind == .drop ? link.showItems : nil
        }

        private enum CodingKeys: String, CodingKey { case kind, gallery, expiresAt, items, perHour, showItems }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(gallery, forKey: .gallery)
            try container.encode(expiresAt, forKey: .expiresAt)
            try container.encodeIfPresent(items, forKey: .items)
            try container.encodeIfPresent(perHour, forKey: .perHour)
            try container.encodeIfPresent(showItems, forKey: .showItems)
        }
    }

    /// An item as a visitor gets it: every image is the gallery's stored copy under the link's own image route
    /// (`/s/{slug}/img/…`, which checks the link), the item's own images point there too, and nothing that
    /// would load from elsewhere (other sizes, a media preview) is left.
    static func visible(_ item: GalleryItem, slug: String) -> SharedItem {
        func local(_ ref: ImageRef) -> ImageRef {
            var ref = ref
            if ref.url.hasPrefix("/img/") { ref.url = "/s/\(slug)" + ref.url }
            return ref
        }
        var item = item
        item.item.sizes = []
        item.item.mediaPreview = nil
        // A restricted item is a card: its title, creator and source page, never its picture (docs/licences.md,
        // "Restricted items").
        guard !item.restricted else {
            item.item.thumbnail = nil
            item.item.preview = nil
            item.item.full = nil
            return SharedItem(item: item, showsImage: false)
        }
        item.image = StoredImageRefs(
            thumbnail: local(item.image.thumbnail), preview: local(item.image.preview),
            original: local(item.image.original))
        item.item.thumbnail = item.image.thumbnail
        item.item.preview = item.image.preview
        item.item.full = item.image.original
        return SharedItem(item: item, showsImage: true)
    }

    /// A gallery item as a link shows it: the gallery item's JSON, without `image` for a restricted one.
    struct SharedItem: Encodable {
        let item: GalleryItem
        let showsImage: Bool

        private enum CodingKeys: String, CodingKey { case id, item, restricted, sourceURL, size, image, addedAt }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(item.id, forKey: .id)
            try container.encode(item.item, forKey: .item)
            try container.encode(item.restricted, forKey: .restricted)
            try container.encode(item.sourceURL, forKey: .sourceURL)
            try container.encode(item.size, forKey: .size)
            if showsImage { try container.encode(item.image, forKey: .image) }
            try container.encode(item.addedAt, forKey: .addedAt)
        }
    }
}
