import Foundation

/// Why a gallery request cannot be done: an HTTP status, a code for the API's error shape, a sentence.
public struct GalleryError: Error, Sendable, Hashable, CustomStringConvertible {
    public var status: Int
    public var code: String
    public var message: String
    /// The gallery's revision now, for `412` answers.
    public var currentRevision: Int?

    public init(status: Int, code: String, message: String, currentRevision: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.currentRevision = currentRevision
    }

    public var description: String { "\(code): \(message)" }

    public static func galleryNotFound(_ id: String) -> GalleryError {
        GalleryError(status: 404, code: "gallery_not_found", message: "There is no gallery \"\(id.prefix(60))\".")
    }

    public static func itemNotFound(_ id: String) -> GalleryError {
        GalleryError(status: 404, code: "item_not_found", message: "This gallery has no item \"\(id.prefix(60))\".")
    }

    public static let invalidName = GalleryError(
        status: 400, code: "invalid_name",
        message: "A gallery name is 1 to 100 characters (spaces at the ends do not count).")

    public static func invalidIndex(_ index: Int) -> GalleryError {
        GalleryError(status: 400, code: "invalid_index", message: "The index must be 0 or more; \(index) is not.")
    }

    public static func invalidBody(_ why: String) -> GalleryError {
        GalleryError(status: 400, code: "invalid_body", message: why)
    }

    public static func invalidItem(_ why: String) -> GalleryError {
        GalleryError(status: 400, code: "invalid_item", message: why)
    }

    public static let galleryDeleted = GalleryError(
        status: 409, code: "gallery_deleted",
        message: "This gallery is in Recently deleted: restore it before changing it.")

    public static func revisionMismatch(expected: Int, current: Int) -> GalleryError {
        GalleryError(
            status: 412, code: "revision_mismatch",
            message: "The gallery changed meanwhile (revision \(current), not \(expected)): reload it and try again.",
            currentRevision: current)
    }
}

/// A gallery name: trimmed, 1–100 characters.
public enum GalleryName {
    public static func validated(_ raw: String) throws(GalleryError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(name.count) else { throw .invalidName }
        return name
    }
}
