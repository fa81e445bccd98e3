import Foundation
import TesseraCore

/// An http(s) URL reduced to what the fetcher sends: checked scheme, a plain host, port, path and query.
///
/// The URL handed to AsyncHTTPClient is rebuilt from these parts, so the host it connects to is exactly the
/// host that was resolved and checked (no user info, no percent-encoded or Unicode spellings left for
/// another parser to read differently).
struct TargetURL: Sendable, Hashable {
    /// `http` or `https`.
    let scheme: String
    /// Lower-cased; IPv6 literals without brackets.
    let host: String
    let port: Int
    let hasExplicitPort: Bool
    /// Percent-encoded path (at least `/`) and `?query` when there is one.
    let pathAndQuery: String

    init(parsing text: String) throws(FetchError) {
        let text = text.trimmingWhitespace()
        guard let url = URL(string: text) else { throw .invalidURL(Self.redacted(text)) }
        try self.init(url: url, original: text)
    }

    /// The target of a redirect: `location` resolved against this URL.
    func resolving(location: String) throws(FetchError) -> TargetURL {
        let location = location.trimmingWhitespace()
        guard let base = URL(string: string), let url = URL(string: location, relativeTo: base)?.absoluteURL
        else { throw .invalidURL(Self.redacted(location)) }
        return try TargetURL(url: url, original: location)
    }

    private init(url: URL, original: String) throws(FetchError) {
        guard let scheme = url.scheme?.lowercased() else { throw .unsupportedScheme("") }
        guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme) }
        // `URL.host` is percent-decoded and IDNA-encoded (`xn--…`); what is left must be a plain name or an
        // IPv6 literal, or it is refused rather than guessed at.
        guard let rawHost = url.host?.lowercased(), !rawHost.isEmpty else {
            throw .invalidURL(Self.redacted(original))
        }
        let host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        if host.contains(":") {
            guard !host.contains("%"), case .v6 = IPAddress(host) else { throw .invalidURL(Self.redacted(original)) }
        } else {
            guard host.utf8.allSatisfy(Self.isHostNameByte) else { throw .invalidURL(Self.redacted(original)) }
        }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else { throw .invalidURL(Self.redacted(original)) }
        var pathAndQuery = url.path(percentEncoded: true)
        if pathAndQuery.isEmpty { pathAndQuery = "/" }
        if let query = url.query(percentEncoded: true) { pathAndQuery += "?" + query }
        self.scheme = scheme
        self.host = host
        self.port = port
        self.hasExplicitPort = url.port != nil
        self.pathAndQuery = pathAndQuery
    }

    var isDefaultPort: Bool { port == (scheme == "https" ? 443 : 80) }

    /// The host as written in a URL: IPv6 literals in brackets.
    var hostForURL: String { host.contains(":") ? "[\(host)]" : host }

    /// `host:port`, the form trusted origins are written in.
    var origin: String { "\(hostForURL):\(port)" }

    /// The whole URL, as sent.
    var string: String { "\(scheme)://\(hostForURL)\(isDefaultPort ? "" : ":\(port)")\(pathAndQuery)" }

    private static func isHostNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"): true
        default: false
        }
    }

    /// `text` without query or fragment (which may carry keys), at most 100 characters, for messages.
    static func redacted(_ text: String) -> String {
        let base = text.prefix { $0 != "?" && $0 != "#" }
        return base.count > 100 ? base.prefix(100) + "…" : String(base)
    }
}
