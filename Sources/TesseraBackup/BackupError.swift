import Foundation

/// Why a backup or a restore did not happen, said so a person can act on it. The CLI maps each case to an
/// exit status in `Exit+Backup.swift`: what the operator gave that cannot be right exits 2, anything else 1.
public enum BackupError: Error, CustomStringConvertible, Sendable {
    /// The data folder to back up is not there.
    case noDataFolder(String)
    /// The data folder has no database: nothing a server ever wrote.
    case noDatabase(folder: String)
    /// The galleries live in PostgreSQL, which `pg_dump` backs up (docs/deploy.md).
    case postgres
    /// Where the backup should go cannot take it (no such folder, a folder in its place).
    case badDestination(String)
    /// The live database could not be read or copied.
    case database(path: String, reason: String)
    /// The database names image copies the data folder does not have: it was damaged before the backup.
    case missingImages(count: Int, example: String)
    /// A stored image's bytes no longer match the hash that is its name: the disk damaged it.
    case damagedImage(String)
    /// Writing the backup (or the restored folder) failed.
    case write(path: String, reason: String)
    /// The backup file cannot be opened.
    case read(path: String, reason: String)
    /// The file is not a Tessera backup at all.
    case notABackup(String)
    /// A backup made by a newer Tessera, in a format this one does not know.
    case unsupportedVersion(path: String, version: Int)
    /// The backup is damaged or cut short: what is wrong, and where.
    case damaged(path: String, reason: String)
    /// The folder to restore into already holds something.
    case destinationNotEmpty(String)

    public var description: String {
        switch self {
        case .noDataFolder(let path):
            "There is no data folder at \(path); check --data or TESSERA_DATA."
        case .noDatabase(let folder):
            "\(folder) holds no Tessera database (tessera.sqlite), so there is nothing to back up; check --data "
                + "or TESSERA_DATA."
        case .postgres:
            "TESSERA_DATABASE_URL is set: the galleries and the signing key are in PostgreSQL. Back that up with "
                + "pg_dump, then copy the data folder's gallery-images/ (see docs/deploy.md, \"Backup and restore\")."
        case .badDestination(let reason):
            reason
        case .database(let path, let reason):
            "Could not copy the database \(path): \(reason)"
        case .missingImages(let count, let example):
            "The database names \(count) image \(count == 1 ? "copy" : "copies") missing from gallery-images/ "
                + "(\(example) first); the data folder was damaged before this backup, which would not restore whole."
        case .damagedImage(let path):
            "\(path) no longer matches the SHA-256 that is its name: the disk damaged it. No backup was written."
        case .write(let path, let reason):
            "Could not write \(path): \(reason)"
        case .read(let path, let reason):
            "Could not read \(path): \(reason)"
        case .notABackup(let path):
            "\(path) is not a Tessera backup (tessera backup writes one)."
        case .unsupportedVersion(let path, let version):
            "\(path) is a backup in format \(version), which this Tessera does not know; restore it with a newer one."
        case .damaged(let path, let reason):
            "\(path) is damaged: \(reason). Nothing was restored."
        case .destinationNotEmpty(let path):
            "\(path) is not empty; restore into a new or empty folder, or add --replace to move it aside first "
                + "(stop any tessera serve using it before)."
        }
    }
}
