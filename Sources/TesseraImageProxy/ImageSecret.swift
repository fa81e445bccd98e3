import Crypto
import Foundation
import TesseraCore

/// The key that signs image URLs: `TESSERA_SECRET` when set, else a random key made on first start and kept
/// (`ImageSecretStore`) in the data folder or, for several servers, in their shared database, so signed URLs
/// stay valid across restarts and every instance signs alike.
public enum ImageSecret {
    /// `TESSERA_SECRET` (hashed to a key) when set, else the stored key.
    public static func load(configured: String?, store: any ImageSecretStore) async throws -> Data {
        if let configured, !configured.isEmpty { return fromConfigured(configured) }
        return try await store.loadOrCreate()
    }

    /// `TESSERA_SECRET` when set, else the key in `dataDirectory`.
    public static func load(configured: String?, dataDirectory: URL) throws -> Data {
        if let configured, !configured.isEmpty { return fromConfigured(configured) }
        return try ImageSecretFile(directory: dataDirectory).loadOrCreateNow()
    }

    static func fromConfigured(_ configured: String) -> Data {
        Data(SHA256.hash(data: Data(configured.utf8)))
    }

    /// 256 random bits.
    public static func random() -> Data { ImageSecretFile.newKey() }
}

/// The key in a file of the data folder (readable by the owner only).
public struct ImageSecretFile: ImageSecretStore {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public func loadOrCreate() async throws -> Data {
        try loadOrCreateNow()
    }

    func loadOrCreateNow() throws -> Data {
        let file = DataFolder(directory).imageSecretFile
        if let existing = try? Data(contentsOf: file) {
            if existing.count >= 32 { return existing }
            // A damaged key signs nothing safely: replace it (URLs it signed stop working either way).
            let secret = ImageSecret.random()
            try AtomicFile.write(secret, to: file, permissions: 0o600)
            return secret
        }
        // Written whole under a name of its own, then linked to the real name, which fails when another process
        // got there first: every racer then reads the one key that won, never a torn or a second one.
        let candidate = directory.appendingPathComponent(".\(DataFolder.imageSecret)-\(UUID().uuidString)")
        try AtomicFile.write(ImageSecret.random(), to: candidate, permissions: 0o600)
        defer { try? FileManager.default.removeItem(at: candidate) }
        try? FileManager.default.linkItem(at: candidate, to: file)
        let stored = try Data(contentsOf: file)
        guard stored.count >= 32 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: file.path])
        }
        return stored
    }
}
