import Foundation

/// `/img/{variant}/{signature}/{source}` (a path, or a URL with that path; also under a link, `/s/{slug}/img/…`),
/// taken apart: what `ImageURLSigner.link` makes.
/// Only `ImageURLSigner.verify` (through the proxy) says whether it is genuine.
public struct SignedImagePath: Sendable, Hashable {
    public let variant: String
    public let signature: String
    public let encodedSource: String

    /// The three parts as a route gives them, each still to be checked.
    public init(variant: String, signature: String, encodedSource: String) {
        self.variant = variant
        self.signature = signature
        self.encodedSource = encodedSource
    }

    public init?(_ url: String) {
        // Most addresses asked about are a service's own (grouping a search page reads every thumbnail's):
        // without "/img/" in them, nor a percent escape that a URL's path would decode into one, they cannot
        // be one of ours, and parsing each as a URL showed in the profile.
        guard Self.mentionsImagePath(url) || url.utf8.contains(UInt8(ascii: "%")) else { return nil }
        let path = url.hasPrefix("/") ? url : (URL(string: url)?.path ?? "")
        // Split on the "/" scalars, not on Characters: a combining mark or an emoji modifier right after a "/"
        // forms one Character with it, which would hide that separator.
        var parts = path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // A shared link's copy of the same address, /s/{slug}/img/…, as a link's visitors get it (same signature).
        if parts.count == 7, parts[0].isEmpty, parts[1] == "s", Self.isSlug(parts[2]) {
            parts.removeSubrange(1...2)
        }
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "img" else { return nil }
        variant = parts[2]
        signature = parts[3]
        encodedSource = parts[4]
    }

    /// Whether "/img/" is in `url`, on its bytes (`contains` here is Foundation's, through NSString on Linux).
    static func mentionsImagePath(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { bytes in
            guard bytes.count >= 5 else { return false }
            for start in 0...(bytes.count - 5) where bytes[start] == UInt8(ascii: "/") {
                if bytes[start + 1] == UInt8(ascii: "i"), bytes[start + 2] == UInt8(ascii: "m"),
                    bytes[start + 3] == UInt8(ascii: "g"), bytes[start + 4] == UInt8(ascii: "/")
                {
                    return true
                }
            }
            return false
        }
    }

    /// A link's slug as docs/openapi.yaml reads it: 22 characters of A–Z, a–z, 0–9, "_" and "-".
    static func isSlug(_ text: String) -> Bool {
        text.utf8.count == 22
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }
}
