/// Why the image proxy cannot answer with an image. The server maps each case to an HTTP status and an
/// error code (`APIError+Images.swift`); nothing here holds the source URL's query (it may carry a key).
public enum ImageProxyError: Error, Sendable, CustomStringConvertible {
    /// The path names no image size: only thumb, preview and original exist.
    case unknownVariant(String)
    /// The signature does not match: the address was not made by this server, or its secret changed.
    case invalidSignature
    /// The image on the web could not be fetched (refused address, the source's error, too slow, too big).
    case fetch(FetchError)
    /// The bytes are not an image this server reads, have too many pixels, or libvips failed on them.
    case imaging(ImagingError)
    /// The library photo or stored copy the reference names is not there, or may not be served.
    case file(ImageFileError)
    /// The file was there when checked and gone when read (deleted in between).
    case fileGone(path: String)
    /// Anything else: a fault of this server (a file it cannot read, a bug). Logged, never shown to clients.
    case `internal`(any Error)

    public var description: String {
        switch self {
        case .unknownVariant(let name):
            "Unknown image size \"\(name)\": use thumb, preview or original."
        case .invalidSignature:
            "This image address was not made by this server (or its secret changed): search again."
        case .fetch(let error): error.description
        case .imaging(let error): error.description
        case .file(let error): error.description
        case .fileGone: "The photo is no longer in the library."
        case .internal(let error): "The image could not be prepared: \(error)"
        }
    }
}
