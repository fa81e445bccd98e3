import Foundation

/// A service's base URL (overridable by `TESSERA_<SOURCE>_URL`) and the URLs built under it.
///
/// The override replaces exactly the base: every path the client uses is resolved under it, so
/// `http://127.0.0.1:9001/pixabay/api/` + `videos/` is `http://127.0.0.1:9001/pixabay/api/videos/`.
public struct Endpoint: Sendable, Hashable {
    public let base: URL

    public init(base: URL) {
        self.base = base
    }

    /// `base` + `path` + the query, every value percent-encoded (RFC 3986 unreserved characters only).
    ///
    /// - Parameter spaceAsPlus: encode spaces as `+` (the iTunes Search API documents this form).
    public func url(_ path: String = "", query: [(String, String)], spaceAsPlus: Bool = false) -> URL {
        var string = base.absoluteString
        if !path.isEmpty {
            if !string.hasSuffix("/") { string += "/" }
            string += path
        }
        let encoded = query.map { name, value in
            "\(Self.encode(name, spaceAsPlus: false))=\(Self.encode(value, spaceAsPlus: spaceAsPlus))"
        }
        if !encoded.isEmpty {
            string += (string.contains("?") ? "&" : "?") + encoded.joined(separator: "&")
        }
        return URL(string: string)!
    }

    static func encode(_ value: String, spaceAsPlus: Bool) -> String {
        var output = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.append(Character(Unicode.Scalar(byte)))
            case UInt8(ascii: " ") where spaceAsPlus:
                output.append("+")
            default:
                output += String(format: "%%%02X", byte)
            }
        }
        return output
    }
}
