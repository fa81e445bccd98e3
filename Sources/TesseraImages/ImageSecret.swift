import Crypto
import Foundation

/// The key that signs image URLs: `TESSERA_SECRET` when set, else a random key made on first start and kept
/// in the data folder (readable by the owner only), so signed URLs stay valid across restarts.
public enum ImageSecret {
    public static let fileName = "image-secret"

    public static func load(configured: String?, dataDirectory: URL) throws -> Data {
        if let configured, !configured.isEmpty {
            return Data(SHA256.hash(data: Data(configured.utf8)))
        }
        let file = dataDirectory.appendingPathComponent(fileName)
        if let existing = try? Data(contentsOf: file), existing.count >= 32 {
            return existing
        }
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let secret = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let temporary = dataDirectory.appendingPathComponent(".\(fileName).\(UUID().uuidString)")
        FileManager.default.createFile(atPath: temporary.path, contents: secret, attributes: [.posixPermissions: 0o600])
        // Rename is atomic: two processes starting at once both end with one secret, never a torn file.
        if rename(temporary.path, file.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
        return (try? Data(contentsOf: file)) ?? secret
    }
}
