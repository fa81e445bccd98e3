import Foundation
import TesseraCore

/// The files of the user's library, as `local:` references name them (`ImageReference.library`).
///
/// The server signs a library photo's reference like any upstream image URL; the image proxy then asks this
/// for the file, which is served only if it is still a regular file inside a configured library folder.
public struct LibraryFiles: LocalImageFiles {
    /// The library folders, as configured.
    public let roots: [String]

    public init(roots: [String]) {
        self.roots = roots
    }

    /// The file a reference points at, only when it is a regular file inside one of `roots` after resolving
    /// every symlink and `..` (the real paths of both the file and the roots are compared).
    public func file(for reference: ImageReference) throws(ImageFileError) -> URL {
        guard case .library(let path, _) = reference else { throw .notLocal(reference.string) }
        guard let real = FileSystem.realPath(path) else { throw .missing(path) }
        let realRoots = roots.compactMap(FileSystem.realPath)
        guard realRoots.contains(where: { FileSystem.isInside(real, $0) && real != $0 }) else {
            throw .outsideLibrary(path)
        }
        guard FileSystem.status(real, followLinks: false)?.kind == .file else { throw .notAFile(path) }
        return URL(fileURLWithPath: real)
    }

}
