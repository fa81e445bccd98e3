/// The three sizes Tessera serves from its image proxy.
public enum ImageVariant: String, Sendable, Codable, CaseIterable {
    /// Fits in 400×400: grid tiles.
    case thumb
    /// Fits in 1600×1600: the detail view.
    case preview
    /// The bytes as fetched.
    case original

    /// The longest side this variant is resized to, or `nil` when it is never resized.
    public var maxDimension: Int? {
        switch self {
        case .thumb: 400
        case .preview: 1600
        case .original: nil
        }
    }
}

/// Turns a service's image address into the URL clients use. The server signs it for its proxy.
public protocol ImageLinking: Sendable {
    func link(_ upstreamURL: String, variant: ImageVariant) -> String
    /// The URL clients play a media preview at (`/media/...`), or `nil` when this linker cannot make one:
    /// the preview is then dropped, never handed out with the service's own address.
    func linkMedia(_ upstreamURL: String) -> String?
}

extension ImageLinking {
    public func linkMedia(_ upstreamURL: String) -> String? { nil }
}

/// Sizes of images scaled to fit a box, as the proxy and the services do it.
public enum Geometry {
    /// `width`×`height` scaled down (never up) so its longest side is at most `maxSide`;
    /// `nil` when the size is unknown.
    public static func fit(width: Int?, height: Int?, maxSide: Int) -> (width: Int, height: Int)? {
        guard let width, let height, width > 0, height > 0 else { return nil }
        let longest = max(width, height)
        guard longest > maxSide else { return (width, height) }
        let scale = Double(maxSide) / Double(longest)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}

extension ImageRef {
    /// The size this image has once fitted into `variant`, when the original size is known.
    func fitted(to variant: ImageVariant) -> (width: Int?, height: Int?) {
        guard let maxSide = variant.maxDimension,
            let size = Geometry.fit(width: width, height: height, maxSide: maxSide)
        else { return (width, height) }
        return size
    }
}

extension Item {
    /// The same item with every image URL pointing at our proxy instead of the service.
    public func linkingImages(with linker: any ImageLinking) -> Item {
        var copy = self
        // `full` is nearly always one of `sizes` too: sign each original once.
        // A list, not a dictionary: an item has a few sizes, and hashing each address cost more than comparing.
        var originals: [(url: String, linked: String)] = []
        func link(_ url: String, _ variant: ImageVariant) -> String {
            guard variant == .original else { return linker.link(url, variant: variant) }
            if let known = originals.first(where: { $0.url == url }) { return known.linked }
            let linked = linker.link(url, variant: .original)
            originals.append((url, linked))
            return linked
        }
        func linked(_ ref: ImageRef?, _ variant: ImageVariant) -> ImageRef? {
            guard let ref else { return nil }
            let size = ref.fitted(to: variant)
            return ImageRef(url: link(ref.url, variant), width: size.width, height: size.height)
        }
        copy.thumbnail = linked(thumbnail, .thumb)
        copy.preview = linked(preview, .preview)
        copy.full = linked(full, .original)
        copy.sizes = sizes.map {
            ImageSize(name: $0.name, url: link($0.url, .original), width: $0.width, height: $0.height)
        }
        copy.mediaPreview = mediaPreview.flatMap { preview in
            linker.linkMedia(preview.url).map { MediaPreview(url: $0, kind: preview.kind) }
        }
        if let screenshots = listing?.screenshots {
            copy.listing?.screenshots = screenshots.compactMap { linked($0, .preview) }
        }
        return copy
    }
}

/// Picks the renditions for thumbnail, preview and full from what a service offers.
public enum ImagePicker {
    /// The smallest rendition that still covers the variant's size, else the largest one;
    /// renditions of unknown size count as smaller than every known one.
    public static func pick(_ sizes: [ImageSize], for variant: ImageVariant) -> ImageRef? {
        let sorted = sizes.sorted { longestSide($0) < longestSide($1) }
        guard let largest = sorted.last else { return nil }
        guard let needed = variant.maxDimension else { return largest.ref }
        return (sorted.first { longestSide($0) >= needed } ?? largest).ref
    }

    /// Fills thumbnail, preview and full of `item` from its `sizes`.
    public static func assign(_ item: inout Item) {
        item.sizes.sort { longestSide($0) < longestSide($1) }
        item.thumbnail = pick(item.sizes, for: .thumb)
        item.preview = pick(item.sizes, for: .preview)
        item.full = pick(item.sizes, for: .original)
    }

    private static func longestSide(_ size: ImageSize) -> Int {
        max(size.width ?? -1, size.height ?? -1)
    }
}
