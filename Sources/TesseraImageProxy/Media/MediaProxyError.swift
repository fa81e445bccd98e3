import TesseraCore
import TesseraFetcher

/// Why `/media/...` cannot play a preview. The server maps each case to an HTTP status and a code
/// (`APIError+Media.swift`); nothing here holds the source URL's query.
public enum MediaProxyError: Error, Sendable, CustomStringConvertible {
    /// The signature does not match: the address was not made by this server, or its secret changed.
    case invalidSignature
    /// The host's answer is not audio or video: its content type is not one the route serves, or its first
    /// bytes are no audio or video container.
    case notMedia(host: String, contentType: String?)
    /// The preview is larger than `TESSERA_PREVIEW_MAX_MB`.
    case tooLarge(limit: Int)
    /// The preview could not be fetched (refused address, the host's error, too slow).
    case fetch(FetchError)
    /// Anything else: a fault of this server. Logged, never shown to clients.
    case `internal`(any Error)

    public var description: String {
        switch self {
        case .invalidSignature:
            "This preview address was not made by this server (or its secret changed): search again."
        case .notMedia(let host, let contentType):
            "\(host) sent \(contentType.map { "\($0) content" } ?? "content without a type") that is not audio or"
                + " video, so Tessera does not play it."
        case .tooLarge(let limit):
            "The preview is larger than Tessera's limit of \(limit / (1024 * 1024)) MB for previews."
        case .fetch(let error): error.description
        case .internal(let error): "The preview could not be prepared: \(error)"
        }
    }
}
