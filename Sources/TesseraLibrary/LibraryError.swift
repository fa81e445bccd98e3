/// Why the library could not do what was asked. Each message says what to do about it.
public enum LibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The folder to index does not exist.
    case missingFolder(String)
    /// The path to index is not a folder.
    case notAFolder(String)
    /// The index (SQLite or PostgreSQL) failed; `detail` is the database's own message.
    case database(String)
    /// The index is shared (PostgreSQL) and another server or command is indexing it now.
    case indexedElsewhere

    public var code: String {
        switch self {
        case .missingFolder: "missing_folder"
        case .notAFolder: "not_a_folder"
        case .database: "library_database"
        case .indexedElsewhere: "library_busy"
        }
    }

    public var message: String {
        switch self {
        case .missingFolder(let path): "There is no folder \(path); check the path."
        case .notAFolder(let path): "\(path) is not a folder; give the folder that holds your photos."
        case .database(let detail): "The library index could not be read or written (\(detail))."
        case .indexedElsewhere:
            "Another Tessera (a server or a command) is indexing the shared library index now; run this again once it is done."
        }
    }

    /// Input the user got wrong (exit status 2 in the CLI), as opposed to a failure.
    public var isBadInput: Bool {
        switch self {
        case .missingFolder, .notAFolder: true
        case .database, .indexedElsewhere: false
        }
    }

    public var description: String { message }
}

/// Photo ids: a short hash of root and relative path, so the same file keeps its id across re-indexing.
enum StableID {
    /// 16 hex digits of FNV-1a (64 bits) over `root`, a NUL and `path`. Collisions between two files of one
    /// index are astronomically unlikely (about 1 in 10^9 at a million photos); the unique index would refuse one.
    static func make(root: String, path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in root.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        hash = (hash ^ 0) &* 0x0000_0100_0000_01b3
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
