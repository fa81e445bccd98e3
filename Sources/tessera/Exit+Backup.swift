import ArgumentParser
import TesseraBackup

extension Exit {
    /// What the operator gave that cannot be right (a folder, a file that is no backup, PostgreSQL) exits 2;
    /// failures to read, copy or write, and damaged backups, exit 1.
    static func backup(_ error: BackupError) -> ExitCode {
        switch error {
        case .noDataFolder, .noDatabase, .postgres, .badDestination, .notABackup, .destinationNotEmpty:
            badInput(error.description)
        case .database, .missingImages, .damagedImage, .write, .read, .unsupportedVersion, .damaged:
            failure(error.description)
        }
    }
}
