/// Why an image could not be fetched. Each case names the host (never the full URL, whose query may carry a
/// key) and its `message` says what a person can do about it.
public enum FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a URL Tessera can fetch; carries the address without its query, shortened.
    case invalidURL(String)
    /// A scheme other than http and https (`""` when the URL had none).
    case unsupportedScheme(String)
    /// The host resolved to an address outside the public internet (and is not a trusted origin).
    case refusedAddress(host: String, address: String, reason: String)
    /// DNS had no address for the host.
    case unresolvable(host: String)
    /// More redirects than the policy allows.
    case tooManyRedirects(limit: Int)
    /// The body is larger than the policy allows.
    case tooLarge(limit: Int)
    /// No complete answer within the connect or total time limit.
    case timeout(host: String)
    /// The host answered with a status other than 2xx (or a redirect without a usable `Location`).
    case upstreamStatus(host: String, status: Int)
    /// The connection failed before or while the answer arrived (also when the fetch was cancelled).
    case connectionFailed(host: String, detail: String)
    /// The first bytes did not pass the caller's check of what an image starts with.
    case notAnImage(host: String, contentType: String?)

    /// Stable snake_case code for the API's error shape.
    public var code: String {
        switch self {
        case .invalidURL: "invalid_url"
        case .unsupportedScheme: "unsupported_scheme"
        case .refusedAddress: "refused_address"
        case .unresolvable: "unresolvable"
        case .tooManyRedirects: "too_many_redirects"
        case .tooLarge: "too_large"
        case .timeout: "timeout"
        case .upstreamStatus: "upstream_status"
        case .connectionFailed: "connection_failed"
        case .notAnImage: "not_an_image"
        }
    }

    /// A sentence a person can act on.
    public var message: String {
        switch self {
        case .invalidURL(let url):
            return "\"\(url)\" is not an image address Tessera can fetch; give a full http:// or https:// URL."
        case .unsupportedScheme(let scheme) where scheme.isEmpty:
            return "The image address has no scheme; give a full http:// or https:// URL."
        case .unsupportedScheme(let scheme):
            return "Tessera fetches images only over http and https, not \(scheme):; give an http(s) URL."
        case .refusedAddress(let host, let address, let reason):
            return "Tessera does not fetch images from \(host): it resolves to \(address) (\(reason)), which is"
                + " not on the public internet. If it is a source of yours, set its TESSERA_<SOURCE>_URL to"
                + " trust it."
        case .unresolvable(let host):
            return "Tessera could not find the address of \(host); check the host name in the image address."
        case .tooManyRedirects(let limit):
            return "The image address redirected more than \(limit) times; Tessera stopped following it."
        case .tooLarge(let limit):
            return "The image is larger than Tessera's limit of \(Self.formatBytes(limit)); choose a smaller one."
        case .timeout(let host):
            return "\(host) did not send the image in time; try again later."
        case .upstreamStatus(let host, let status):
            return "\(host) answered HTTP \(status)\(Self.statusHint(status)) instead of the image."
        case .connectionFailed(let host, _):
            return "Tessera could not get the image from \(host): the connection failed; try again later."
        case .notAnImage(let host, let contentType):
            let what = contentType.map { "\($0) content" } ?? "content without a type"
            return "\(host) sent \(what) that is not an image Tessera can read."
        }
    }

    public var description: String {
        switch self {
        case .connectionFailed(_, let detail): "\(message) (\(detail))"
        default: message
        }
    }

    private static func statusHint(_ status: Int) -> String {
        switch status {
        case 401, 403: " (access denied)"
        case 404, 410: " (not found)"
        case 429: " (too many requests)"
        case 500..<600: " (server error)"
        default: ""
        }
    }

    private static func formatBytes(_ bytes: Int) -> String {
        let mebibyte = 1024 * 1024
        if bytes >= mebibyte, bytes % mebibyte == 0 { return "\(bytes / mebibyte) MB" }
        if bytes >= 1024, bytes % 1024 == 0 { return "\(bytes / 1024) KB" }
        return "\(bytes) bytes"
    }
}

extension ErrorInfo {
    /// The `{"code", "message"}` pair for a fetch failure.
    public init(_ error: FetchError) {
        self.init(code: error.code, message: error.message)
    }
}
