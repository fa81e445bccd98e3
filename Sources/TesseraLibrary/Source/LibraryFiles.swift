import Foundation

/// References to files of the user's library, as the `local` source puts them in `ImageRef.url`.
///
/// The server signs a reference like any upstream image URL; the image proxy then asks `resolve` for the
/// file, which is served only if it is still a regular file inside a configured library folder.
public enum LocalFile {
    public static let scheme = "local:"

    /// `"local:"` + percent-encoded absolute path + `"?v=<size>-<mtime seconds>"`; the version changes with the
    /// file, so proxy caches never serve an old rendering of an edited photo.
    public static func reference(path: String, size: Int64, modified: Date) -> String {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: pathCharacters) ?? path
        let seconds = Int64(modified.timeIntervalSince1970.rounded(.down))
        return "\(scheme)\(encoded)?v=\(size)-\(seconds)"
    }

    /// The file a reference points at, only when it is a regular file inside one of `roots` after resolving
    /// every symlink and `..` (the real paths of both the file and the roots are compared).
    public static func resolve(_ reference: String, roots: [String]) throws(LocalFileError) -> URL {
        guard reference.hasPrefix(scheme) else { throw .notLocal(reference) }
        var encoded = reference.dropFirst(scheme.count)
        if let query = encoded.firstIndex(of: "?") { encoded = encoded[..<query] }
        guard let path = String(encoded).removingPercentEncoding, path.hasPrefix("/"), !path.contains("\0") else {
            throw .notLocal(reference)
        }
        guard let real = FileSystem.realPath(path) else { throw .missing(path) }
        let realRoots = roots.compactMap(FileSystem.realPath)
        guard realRoots.contains(where: { FileSystem.isInside(real, $0) && real != $0 }) else {
            throw .outsideLibrary(path)
        }
        guard FileSystem.status(real, followLinks: false)?.kind == .file else { throw .notAFile(path) }
        return URL(fileURLWithPath: real)
    }

    /// Unreserved characters and `/`: everything else, `%`, `?` and `#` included, is encoded.
    private static let pathCharacters: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~/")
        return set
    }()
}

/// Why a `local:` reference does not lead to a file the proxy may serve.
public enum LocalFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a `local:` reference, or not an absolute path.
    case notLocal(String)
    /// Resolves outside every library folder (through `..` or a symlink), or no library is configured.
    case outsideLibrary(String)
    /// Nothing there (any more).
    case missing(String)
    /// There, but a folder or a device rather than a regular file.
    case notAFile(String)

    public var code: String {
        switch self {
        case .notLocal: "not_local"
        case .outsideLibrary: "outside_library"
        case .missing: "not_found"
        case .notAFile: "not_a_file"
        }
    }

    public var description: String {
        switch self {
        case .notLocal(let reference): "\(reference.prefix(80)) is not a reference to a library file."
        case .outsideLibrary(let path): "\(path) is outside every library folder."
        case .missing(let path): "\(path) does not exist (any more)."
        case .notAFile(let path): "\(path) is not a regular file."
        }
    }
}
