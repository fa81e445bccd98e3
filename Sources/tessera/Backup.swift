import ArgumentParser
import Foundation
import TesseraBackup
import TesseraCore

/// `tessera backup FILE`: the data folder in one file, taken while `tessera serve` may be running on it.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write the data folder's database, gallery image copies and signing key to one file.",
        discussion: """
            A consistent snapshot, safe while tessera serve runs on the same data folder. Left out: the \
            response cache and the thumbnail cache, which refill themselves. The file is a tar archive with \
            manifest.json first (every file's size and SHA-256); it appears whole or not at all. With \
            TESSERA_DATABASE_URL (PostgreSQL) use pg_dump instead (docs/deploy.md, "Backup and restore").
            Exit status: 0 done, 1 failure, 2 bad input.
            """)

    @Argument(help: ArgumentHelp("Where to write the backup (replaced if there).", valueName: "file"))
    var file: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let configuration = try Exit.configuration(common)
        guard configuration.databaseURL == nil else { throw Exit.backup(.postgres) }
        let destination = URL(fileURLWithPath: file).standardizedFileURL
        let backup = DataFolderBackup(
            dataDirectory: configuration.dataDirectory, mediaDirectory: configuration.mediaDirectory,
            secretConfigured: !(configuration.secret ?? "").isEmpty)
        let summary = try await BackupCLI.blocking { () throws(BackupError) in try backup.write(to: destination) }
        Terminal.out("Wrote \(destination.path): \(BackupCLI.describe(summary))\n")
        if summary.secret == .configured {
            Terminal.error(
                "note: the image-signing key is TESSERA_SECRET, which is not in the backup: keep its value with it.\n")
        }
    }
}

/// `tessera restore FILE`: a data folder rebuilt from a backup, every file checked.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Rebuild a data folder (--data) from a file tessera backup wrote, checking every file's hash.",
        discussion: """
            The folder must be new or empty, unless --replace moves it aside first. The backup is unpacked \
            next to it and takes its name only once every file matches its SHA-256 and the database is whole: \
            a damaged or cut backup leaves nothing behind. Then: tessera serve --data DIR.
            Exit status: 0 done, 1 failure (a damaged backup), 2 bad input.
            """)

    @Argument(help: ArgumentHelp("A file tessera backup wrote.", valueName: "file"))
    var file: String

    @Flag(help: "Move a non-empty data folder aside (to DIR.replaced-TIME) instead of refusing it.")
    var replace = false

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let configuration = try Exit.configuration(common)
        let restore = DataFolderRestore(
            backup: URL(fileURLWithPath: file).standardizedFileURL,
            destination: configuration.dataDirectory.standardizedFileURL, replace: replace)
        let summary = try await BackupCLI.blocking { () throws(BackupError) in try restore.run() }
        if let aside = summary.movedAside {
            Terminal.out("Moved the folder that was there to \(aside.path)\n")
        }
        let folder = restore.destination.path
        Terminal.out(
            "Restored \(restore.backup.lastPathComponent) into \(folder): \(BackupCLI.describe(summary.contents)), "
                + "every hash checked\n")
        switch summary.contents.secret {
        case .file: break
        case .configured:
            Terminal.error("note: the backup was made with TESSERA_SECRET set: set the same value to serve it.\n")
        case .none:
            Terminal.error("note: the backup holds no image-signing key; a new one is made, so old image links stop.\n")
        }
    }
}

enum BackupCLI {
    /// Runs the blocking work on a thread of its own, not on Swift's few cooperative ones.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws(BackupError) -> T) async throws -> T {
        let pool = BlockingPool(size: 1, name: "backup")
        defer { pool.shutdown() }
        do {
            guard let value = try await pool.run(body) else { throw ExitCode(130) }
            return value
        } catch let error as BackupError {
            throw Exit.backup(error)
        }
    }

    /// "3 galleries, 41 items, 38 image copies, 12.3 MB".
    static func describe(_ summary: DataFolderBackup.Summary) -> String {
        func count(_ value: Int, _ one: String, _ many: String) -> String { "\(value) \(value == 1 ? one : many)" }
        return [
            count(summary.galleries, "gallery", "galleries"), count(summary.items, "item", "items"),
            count(summary.imageCopies, "image copy", "image copies"), Format.bytes(summary.bytes),
        ].joined(separator: ", ")
    }
}
