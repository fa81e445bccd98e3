import Crypto
import Foundation
import TesseraCore

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
        let secret = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        // Written whole under its name or not at all: a process starting at the same moment never reads a
        // torn key.
        try AtomicFile.write(secret, to: file, permissions: 0o600)
        return (try? Data(contentsOf: file)) ?? secret
    }
}
