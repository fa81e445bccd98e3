/// What can go wrong reading or converting an image.
public enum ImagingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The leading bytes are not those of a JPEG, PNG, GIF, WebP, AVIF or HEIC image.
    case notAnImage
    /// The image declares more pixels than this server decodes; refused before decoding.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// libvips could not read the header or decode the pixels: a truncated or corrupt file, or one that
    /// cannot be opened. The text is libvips' or the system's reason.
    case unreadable(String)
    /// Anything else libvips reported, or work that was cancelled before it started.
    case failed(String)

    public var description: String {
        switch self {
        case .notAnImage:
            "This is not an image Tessera can read: use a JPEG, PNG, GIF, WebP, AVIF or HEIC file."
        case .tooManyPixels(let width, let height, let limit):
            "The image is \(width)×\(height) pixels, more than the \(limit) pixels this server decodes: "
                + "use a smaller image or raise the limit."
        case .unreadable(let reason):
            "The image could not be read; it may be truncated or damaged (\(reason))."
        case .failed(let reason):
            "The image could not be processed (\(reason))."
        }
    }
}
