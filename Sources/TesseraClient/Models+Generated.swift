import Foundation

// Conversions between the generated `Components.Schemas` and the public types. Enum values the server
// sends are the document's; a value outside it fails decoding in the generated code already.

extension ImageLink {
    init(_ image: Components.Schemas.Image) {
        self.init(url: image.url, width: image.width, height: image.height)
    }

    var generated: Components.Schemas.Image {
        .init(url: url, width: width, height: height)
    }
}

extension Link {
    init(_ link: Components.Schemas.Link) {
        self.init(name: link.name, url: link.url)
    }

    var generated: Components.Schemas.Link { .init(name: name, url: url) }
}

extension License {
    init(_ license: Components.Schemas.License) {
        self.init(
            id: license.id, name: license.name, version: license.version, url: license.url,
            allowsCommercialUse: license.allowsCommercialUse, allowsModification: license.allowsModification,
            requiresCredit: license.requiresCredit)
    }

    var generated: Components.Schemas.License {
        .init(
            id: id, name: name, version: version, url: url, allowsCommercialUse: allowsCommercialUse,
            allowsModification: allowsModification, requiresCredit: requiresCredit)
    }
}

extension Item {
    init(_ item: Components.Schemas.Item) {
        self.init(
            id: item.id, source: item.source.rawValue, kind: Kind(item.kind), title: item.title, tags: item.tags,
            creator: item.creator.map(Link.init), license: item.license.map(License.init), pageURL: item.pageURL,
            thumbnail: item.thumbnail.map(ImageLink.init), preview: item.preview.map(ImageLink.init),
            full: item.full.map(ImageLink.init),
            sizes: item.sizes.map {
                NamedImage(name: $0.value2.name, url: $0.value1.url, width: $0.value1.width, height: $0.value1.height)
            },
            metadata: item.metadata.map { MetadataEntry(label: $0.label, value: $0.value) },
            mediaPreview: item.mediaPreview.map { MediaPreview(url: $0.url, kind: $0.kind.rawValue) },
            listing: item.listing.map {
                StoreListing(
                    price: $0.price, rating: $0.rating, ratingCount: $0.ratingCount, description: $0.description,
                    screenshots: $0.screenshots?.map(ImageLink.init))
            })
    }

    /// The item as the API takes it back (adding a search result to a gallery); nil for a source outside
    /// the document's list, which the server would refuse anyway.
    var generated: Components.Schemas.Item? {
        guard let source = Components.Schemas.Item.SourcePayload(rawValue: source),
            let kind = Components.Schemas.Kind(rawValue: kind.rawValue)
        else { return nil }
        return .init(
            id: id, source: source, kind: kind, title: title, tags: tags, creator: creator?.generated,
            license: license?.generated, pageURL: pageURL, thumbnail: thumbnail?.generated,
            preview: preview?.generated, full: full?.generated,
            sizes: sizes.map { .init(value1: $0.link.generated, value2: .init(name: $0.name)) },
            metadata: metadata.map { .init(label: $0.label, value: $0.value) },
            mediaPreview: mediaPreview.flatMap { preview in
                Components.Schemas.MediaPreview.KindPayload(rawValue: preview.kind).map {
                    .init(url: preview.url, kind: $0)
                }
            },
            listing: listing.map {
                .init(
                    price: $0.price, rating: $0.rating, ratingCount: $0.ratingCount, description: $0.description,
                    screenshots: $0.screenshots?.map(\.generated))
            })
    }
}

extension Kind {
    init(_ kind: Components.Schemas.Kind) {
        // Both lists come from the document's `Kind`.
        self = Kind(rawValue: kind.rawValue)!
    }
}

extension Section {
    init(_ section: Components.Schemas.Section) {
        self.init(
            id: SectionID(rawValue: section.id.rawValue)!, title: section.title, items: section.items.map(Item.init),
            total: section.total, hasMore: section.hasMore,
            error: section.error.map { ServerMessage(code: $0.code, message: $0.message, retryAfter: $0.retryAfter) },
            filters: section.filters.map {
                FilterReport(
                    native: $0.native.map(\.rawValue), tessera: $0.tessera.map(\.rawValue),
                    unsupported: $0.unsupported.map(\.rawValue))
            })
    }
}

extension SearchResults {
    init(_ response: Components.Schemas.SearchResponse) {
        self.init(
            query: response.query, scope: Scope(rawValue: response.scope.rawValue)!, page: response.page,
            sections: response.sections.map(Section.init),
            groups: response.groups?.map { SearchGroup(items: $0.items, representative: $0.representative) })
    }
}

extension SourceInfo {
    init(_ source: Components.Schemas.Source) {
        self.init(
            id: source.id, title: source.title, kinds: source.kinds.map(Kind.init), sections: source.sections,
            enabled: source.enabled, reason: source.reason)
    }
}

extension Gallery {
    init(_ gallery: Components.Schemas.Gallery) {
        self.init(
            id: GalleryID(gallery.id), name: gallery.name, itemCount: gallery.itemCount,
            cover: gallery.cover.map { ImageLink(url: $0.url, width: $0.width, height: $0.height) },
            createdAt: gallery.createdAt, updatedAt: gallery.updatedAt, deletedAt: gallery.deletedAt,
            revision: gallery.revision, items: gallery.items?.map(GalleryItem.init))
    }
}

extension GalleryItem {
    init(_ item: Components.Schemas.GalleryItem) {
        self.init(
            id: GalleryItemID(item.id), item: Item(item.item), restricted: item.restricted, sourceURL: item.sourceURL,
            size: item.size,
            image: StoredImage(
                thumbnail: ImageLink(item.image.thumbnail), preview: ImageLink(item.image.preview),
                original: ImageLink(item.image.original)),
            addedAt: item.addedAt)
    }
}
