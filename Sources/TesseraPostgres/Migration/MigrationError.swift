import Foundation

/// Why `tessera migrate` could not copy a data folder into PostgreSQL, as a sentence an operator can act on.
public enum MigrationError: Error, Sendable, CustomStringConvertible {
    /// The data folder is not there.
    case noDataFolder(path: String)
    /// A folder without `tessera.sqlite`: nothing to copy (often the wrong `--data`).
    case noDatabase(path: String)
    /// The SQLite database could not be opened or read.
    case sqlite(path: String, reason: String)
    /// The PostgreSQL database: a bad URL, a server out of reach, refused credentials, a failed query.
    case database(SharedDatabaseError)
    /// PostgreSQL already holds a signing key other than the data folder's, and `--replace-secret` was not given.
    case differentSecret(server: String)
    /// The data folder's key file is there but shorter than a key.
    case damagedSecret(path: String)
    /// PostgreSQL has accounts by these names that are other accounts than the data folder's (other ids).
    case accountNameTaken(names: [String], server: String)

    /// What the operator gave that cannot be right (exit 2), rather than a failure along the way (exit 1).
    public var isBadInput: Bool {
        switch self {
        case .noDataFolder, .noDatabase, .differentSecret, .accountNameTaken: true
        case .database(.malformedURL): true
        case .database, .sqlite, .damagedSecret: false
        }
    }

    public var description: String {
        switch self {
        case .noDataFolder(let path):
            "There is no data folder at \(path); give the one tessera serve used with --data or TESSERA_DATA."
        case .noDatabase(let path):
            "There is no Tessera database (tessera.sqlite) in \(path); give the data folder tessera serve used with --data or TESSERA_DATA."
        case .sqlite(let path, let reason):
            "The SQLite database \(path) could not be read (\(reason))."
        case .database(let error):
            error.description
        case .differentSecret(let server):
            "The PostgreSQL database at \(server) already holds a different image-signing key, which servers on it sign image links with; nothing was copied. Run again with --replace-secret to replace it with the data folder's (links signed with the database's key then stop working), or set TESSERA_SECRET on every server, which wins over both."
        case .accountNameTaken(let names, let server):
            "The PostgreSQL database at \(server) already has other accounts named \(names.joined(separator: ", ")) than the data folder's; nothing was copied. Remove them there (TESSERA_DATABASE_URL=… tessera user remove NAME) and run again, or remove or rename them in the data folder."
        case .damagedSecret(let path):
            "The image-signing key \(path) is damaged (shorter than 32 bytes); nothing was copied. Remove it to copy without a key, or restore it from a backup."
        }
    }
}
