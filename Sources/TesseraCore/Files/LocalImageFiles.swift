import Foundation

/// The files on this machine that image references name: library photos (`LibraryFiles`) and the galleries'
/// stored copies (`GalleryImageFiles`). The image proxy asks for a file before it reads one, and serves
/// nothing this refuses.
public protocol LocalImageFiles: Sendable {
    /// The file `reference` names, or why this machine does not serve it. Blocking (it looks at the disk).
    func file(for reference: ImageReference) throws(ImageFileError) -> URL
}

/// Library photos from one place, stored copies from another: what the image proxy reads from disk.
public struct ImageFilesByKind: LocalImageFiles {
    public let library: any LocalImageFiles
    public let stored: any LocalImageFiles

    public init(library: any LocalImageFiles, stored: any LocalImageFiles) {
        self.library = library
        self.stored = stored
    }

    public func file(for reference: ImageReference) throws(ImageFileError) -> URL {
        switch reference {
        case .library: try library.file(for: reference)
        case .stored: try stored.file(for: reference)
        case .web: throw .notLocal(reference.string)
        }
    }
}

/// Why an image reference does not lead to a file on this machine that may be served.
public enum ImageFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a well-formed reference to a library photo (a relative path, a bad escape), or not one at all.
    case notLocal(String)
    /// Resolves outside every library folder (through `..` or a symlink), or no library is configured.
    case outsideLibrary(String)
    /// Nothing there (any more).
    case missing(String)
    /// There, but a folder or a device rather than a regular file.
    case notAFile(String)
    /// No stored copy by that name: a malformed `stored:` reference, or its file is gone.
    case noStoredCopy(String)

    public var description: String {
        switch self {
        case .notLocal(let reference): "\(reference.prefix(80)) is not a reference to a library file."
        case .outsideLibrary(let path): "\(path) is outside every library folder."
        case .missing(let path): "\(path) does not exist (any more)."
        case .notAFile(let path): "\(path) is not a regular file."
        case .noStoredCopy: "No such stored image."
        }
    }
}
