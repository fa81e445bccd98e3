import Foundation
import TesseraCore

/// The first entry of a backup, `manifest.json`: what the backup holds, and every other entry's size and
/// SHA-256, so a restore can check each file and notice one that is missing.
public struct BackupManifest: Codable, Sendable, Equatable {
    public static let entryName = "manifest.json"
    public static let format = "tessera-backup"
    /// Bumped when a restore by an older Tessera would get the backup wrong.
    public static let currentVersion = 1

    public struct File: Codable, Sendable, Equatable {
        /// Where the file goes, relative to the data folder (`tessera.sqlite`, `gallery-images/ab/ab…`).
        public let path: String
        public let size: Int
        public let sha256: String
    }

    /// Whether the image-signing key is in the backup: `file` (it is), `configured` (`TESSERA_SECRET` was set
    /// and there was no key file: keep that value with the backup), or `none`.
    public enum Secret: String, Codable, Sendable {
        case file, configured, none
    }

    public var format = Self.format
    public var version = Self.currentVersion
    public let createdAt: Date
    public let galleries: Int
    public let items: Int
    public let imageCopies: Int
    public let secret: Secret
    public let files: [File]

    /// The JSON written into the backup, sorted and readable (`tar -xOf backup.tessera manifest.json`).
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self)
    }

    static func decode(_ data: Data) throws -> BackupManifest {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(BackupManifest.self, from: data)
    }

    /// What a backup may hold, and where each goes: nothing else is ever written into a restored folder.
    static func isAllowed(_ path: String) -> Bool {
        if path == BackupLayout.database || path == BackupLayout.secret { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == BackupLayout.images else { return false }
        let hash = parts[2]
        return hash.count == 64 && hash.allSatisfy { $0.isHexDigit && !$0.isUppercase } && parts[1] == hash.prefix(2)
    }
}

/// The names of what a data folder holds that a backup carries.
enum BackupLayout {
    static let database = DataFolder.database
    static let secret = DataFolder.imageSecret
    static let images = DataFolder.galleryImages

    static func image(_ hash: String) -> String { DataFolder.galleryImage(hash) }
}
