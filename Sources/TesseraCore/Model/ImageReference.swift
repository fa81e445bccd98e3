import Foundation

/// What a signed image URL names: an image on the web, a photo in the user's library, or a gallery's own
/// stored copy. The image proxy fetches the first and reads the other two from this machine.
///
/// `string` is the form that is signed into `/img/...` URLs and kept in caches' keys; it must not change for a
/// given image, or every URL handed out before would stop working:
/// - web: the `http(s)` URL as the service gave it;
/// - library: `local:` + percent-encoded absolute path + `?v=<version>` (the version changes with the file, so
///   caches never serve an old rendering of an edited photo);
/// - stored: `stored:` + the lowercase hex SHA-256 of the bytes.
public enum ImageReference: Sendable, Hashable, CustomStringConvertible {
    case web(String)
    case library(path: String, version: String?)
    case stored(hash: String)

    static let libraryScheme = "local:"
    static let storedScheme = "stored:"

    /// Reads a reference back from its signed form; `nil` for a `local:` or `stored:` form that is malformed
    /// (anything else is taken as a web address, which the fetcher checks on its own).
    public init?(_ string: String) {
        guard let reference = try? ImageReference(parsing: string) else { return nil }
        self = reference
    }

    /// Reads a reference back from its signed form, or says why a `local:` or `stored:` form names no file
    /// (`notLocal` and `noStoredCopy`). Anything else is taken as a web address.
    public init(parsing string: String) throws(ImageFileError) {
        if string.hasPrefix(Self.storedScheme) {
            let hash = String(string.dropFirst(Self.storedScheme.count))
            guard Self.isValidHash(hash) else { throw .noStoredCopy(string) }
            self = .stored(hash: hash)
        } else if string.hasPrefix(Self.libraryScheme) {
            var encoded = string.dropFirst(Self.libraryScheme.count)
            var version: String?
            if let query = encoded.firstIndex(of: "?") {
                let parameters = encoded[encoded.index(after: query)...]
                if parameters.hasPrefix("v=") { version = String(parameters.dropFirst(2)) }
                encoded = encoded[..<query]
            }
            guard let path = String(encoded).removingPercentEncoding, path.hasPrefix("/"), !path.contains("\0") else {
                throw .notLocal(string)
            }
            self = .library(path: path, version: version)
        } else {
            self = .web(string)
        }
    }

    /// The form signed into image URLs.
    public var string: String {
        switch self {
        case .web(let url):
            return url
        case .library(let path, let version):
            let encoded = path.addingPercentEncoding(withAllowedCharacters: Self.pathCharacters) ?? path
            return Self.libraryScheme + encoded + (version.map { "?v=" + $0 } ?? "")
        case .stored(let hash):
            return Self.storedScheme + hash
        }
    }

    public var description: String { string }

    /// True for references read from this machine (library photos and stored copies), never fetched.
    public var isOnThisMachine: Bool {
        if case .web = self { false } else { true }
    }

    /// A library photo's reference, versioned by its size and modification time (whole seconds).
    public static func libraryFile(path: String, size: Int64, modified: Date) -> ImageReference {
        .library(path: path, version: "\(size)-\(Int64(modified.timeIntervalSince1970.rounded(.down)))")
    }

    /// A SHA-256 in lowercase hex: 64 characters of `0-9a-f`.
    public static func isValidHash(_ hash: String) -> Bool {
        hash.utf8.count == 64 && hash.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Unreserved characters and `/`: everything else, `%`, `?` and `#` included, is encoded.
    private static let pathCharacters: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~/")
        return set
    }()
}
