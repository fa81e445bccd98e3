import Foundation
import TesseraCore

/// Reads one file into a `LibraryPhoto`: images by their first bytes, then libvips for size and metadata, and
/// for its colours from a small thumbnail (`ColorPalette`).
/// Synchronous and blocking: the indexer calls it on its `BlockingPool`.
struct PhotoReader: Sendable {
    enum Outcome: Sendable {
        case photo(LibraryPhoto)
        case notImage(path: String)
        case failed(IndexWarning)
    }

    /// Extensions of the formats Tessera reads, lower-cased.
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "gif", "webp", "avif", "heic", "heif"]

    let processor: any PhotoReading

    func read(_ file: FoundFile, root: String, now: Date) -> Outcome {
        let head: Data
        switch FileSystem.head(of: file.absolutePath, count: ImageSniffer.prefixLength) {
        case .success(let bytes): head = bytes
        case .failure(let error):
            return .failed(IndexWarning(path: file.path, problem: .unreadableFile(error.message)))
        }
        guard ImageSniffer.format(of: head) != nil else {
            // Files are told apart by their bytes; one named like an image that is not one is worth a word.
            guard Self.imageExtensions.contains(Self.fileExtension(file.path)) else {
                return .notImage(path: file.path)
            }
            return .failed(
                IndexWarning(path: file.path, problem: .unreadableImage("not an image, though named like one")))
        }
        let info: ImageInfo
        do {
            info = try processor.info(fileAt: file.absolutePath)
        } catch {
            return .failed(IndexWarning(path: file.path, problem: .unreadableImage(Self.describe(error))))
        }
        var photo = Self.photo(file, root: root, info: info, now: now)
        // Decoding the pixels can fail where the header did not (a truncated file) or be refused (too many
        // pixels): the photo is still indexed, with no colours, and not read again until it changes.
        photo.palette = (try? processor.palette(fileAt: file.absolutePath)) ?? .empty
        return .photo(photo)
    }

    static func photo(_ file: FoundFile, root: String, info: ImageInfo, now: Date) -> LibraryPhoto {
        let fileName = file.path.split(separator: "/").last.map(String.init) ?? file.path
        var metadata = info.metadata
        metadata.add(LibraryPhoto.folderLicenseLabel, file.folderLicense)
        return LibraryPhoto(
            root: root, path: file.path, stamp: file.stamp, format: info.format.rawValue, width: info.width,
            height: info.height, title: clean(info.title) ?? PathTags.readableTitle(fileName: fileName),
            caption: clean(info.caption), keywords: info.keywords.compactMap(clean),
            tags: PathTags.tags(forPath: file.path), creator: clean(info.creator), copyright: clean(info.copyright),
            capturedAt: info.capturedAt, camera: clean(info.camera), metadata: metadata, indexedAt: now)
    }

    static func fileExtension(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return path[path.index(after: dot)...].lowercased()
    }

    /// Trimmed, with runs of whitespace collapsed; `nil` when blank.
    static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let clean = PlainText.collapsingWhitespace(text)
        return clean.isEmpty ? nil : clean
    }

    static func describe(_ error: ImagingError) -> String {
        switch error {
        case .notAnImage: "libvips does not recognise it"
        case .tooManyPixels(let width, let height, _): "\(width)×\(height) is too many pixels"
        case .unreadable(let detail), .failed(let detail): detail
        }
    }
}
