/// The limits and trust one `ImageFetcher` applies to every fetch.
public struct FetchPolicy: Sendable, Hashable {
    /// Largest body accepted, in bytes; enforced while the body streams in.
    public var maxBytes: Int
    /// Redirects followed before giving up; each hop is checked from scratch.
    public var maxRedirects: Int
    /// Time allowed to open one connection.
    public var connectTimeout: Duration
    /// Time allowed for the whole fetch: every hop's resolution, connection, head and body.
    public var totalTimeout: Duration
    /// Lets every address through (loopback and private networks included). For a trusted LAN only.
    public var allowPrivateNetworks: Bool
    /// Origins fetched even on private networks, as `host:port` (see `origin(of:)`); full URLs are accepted
    /// and reduced to their origin. Trust is by host and port: another port on the same host stays refused.
    public var trustedOrigins: Set<String>

    public init(
        maxBytes: Int = 25 * 1024 * 1024, maxRedirects: Int = 5, connectTimeout: Duration = .seconds(5),
        totalTimeout: Duration = .seconds(20), allowPrivateNetworks: Bool = false, trustedOrigins: Set<String> = []
    ) {
        self.maxBytes = maxBytes
        self.maxRedirects = maxRedirects
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.allowPrivateNetworks = allowPrivateNetworks
        self.trustedOrigins = trustedOrigins
    }

    /// The origin of an http(s) URL as `trustedOrigins` holds it: lower-cased `host:port` with the default
    /// port filled in, IPv6 hosts in brackets (`example.com:443`, `127.0.0.1:9001`, `[::1]:80`). Nil for
    /// anything the fetcher would not fetch.
    public static func origin(of url: String) -> String? {
        try? TargetURL(parsing: url).origin
    }

    /// `entry` in the forms `origin(of:)` gives: a URL reduced to its origin; a bare `host:port` lower-cased;
    /// a bare host trusted on both default ports (80 and 443).
    static func normalizedOrigins(_ entry: String) -> [String] {
        let entry = entry.trimmingWhitespace().lowercased()
        if entry.contains("://") { return origin(of: entry).map { [$0] } ?? [] }
        guard !entry.isEmpty, let target = try? TargetURL(parsing: "http://" + entry) else { return [] }
        if target.hasExplicitPort { return [target.origin] }
        return ["\(target.hostForURL):80", "\(target.hostForURL):443"]
    }
}

extension String {
    func trimmingWhitespace() -> String {
        // Most addresses have none, and walking every character twice showed in the image proxy's profile.
        guard first?.isWhitespace == true || last?.isWhitespace == true else { return self }
        return String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
