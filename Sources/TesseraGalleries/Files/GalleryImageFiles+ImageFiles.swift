import Foundation
import TesseraCore

extension GalleryImageFiles: LocalImageFiles {
    /// The stored copy a `stored:` reference names, when its file is there.
    public func file(for reference: ImageReference) throws(ImageFileError) -> URL {
        guard case .stored(let hash) = reference else { throw .notLocal(reference.string) }
        let file = url(forHash: hash)
        guard FileManager.default.fileExists(atPath: file.path) else { throw .noStoredCopy(reference.string) }
        return file
    }
}
