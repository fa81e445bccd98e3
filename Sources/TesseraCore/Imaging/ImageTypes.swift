import Foundation

/// An image's format and size, read without decoding its pixels.
public struct ImageHeader: Sendable, Hashable {
    public var format: ImageFormat
    /// Width as displayed: EXIF orientations 5–8 swap width and height.
    public var width: Int
    /// Height as displayed.
    public var height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

/// Encoded bytes of an image Tessera made, such as a thumbnail.
public struct RenderedImage: Sendable, Hashable {
    public var data: Data
    /// `.jpeg` or `.webp`; `.png` too for a source kept as it is (`ImageProcessor.thumbnail(of:)`).
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    /// The picture's perceptual hash, when the thumbnail was made with `hashing`: read from its pixels before
    /// encoding, so it may differ by a bit or two from the hash of `data`.
    public var perceptualHash: PerceptualHash?

    public init(data: Data, format: ImageFormat, width: Int, height: Int, perceptualHash: PerceptualHash? = nil) {
        self.data = data
        self.format = format
        self.width = width
        self.height = height
        self.perceptualHash = perceptualHash
    }
}

/// What a photo file says about itself: size and the embedded EXIF, IPTC and XMP metadata.
public struct ImageInfo: Sendable, Hashable {
    /// The `metadata` labels of the licence fields an XMP packet may carry.
    public static let licenseLinkLabel = "Licence link"
    public static let usageTermsLabel = "Usage terms"

    public var format: ImageFormat
    /// Width as displayed: EXIF orientations 5–8 swap width and height.
    public var width: Int
    /// Height as displayed.
    public var height: Int
    public var title: String?
    public var caption: String?
    public var keywords: [String]
    public var creator: String?
    public var copyright: String?
    /// When the photo was taken. A camera time without a time zone is read in the processor's time zone.
    public var capturedAt: Date?
    /// Make and model, without the make repeated when the model already starts with it.
    public var camera: String?
    /// Every other field worth showing (lens, exposure, ISO...), in a stable order.
    public var metadata: [MetadataEntry]

    public init(
        format: ImageFormat, width: Int, height: Int, title: String? = nil, caption: String? = nil,
        keywords: [String] = [], creator: String? = nil, copyright: String? = nil, capturedAt: Date? = nil,
        camera: String? = nil, metadata: [MetadataEntry] = []
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.title = title
        self.caption = caption
        self.keywords = keywords
        self.creator = creator
        self.copyright = copyright
        self.capturedAt = capturedAt
        self.camera = camera
        self.metadata = metadata
    }
}
