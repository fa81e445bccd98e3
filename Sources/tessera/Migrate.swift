import ArgumentParser
import Foundation
import Logging
import TesseraPostgres

/// `tessera migrate --to postgres://…`: a SQLite data folder copied into the PostgreSQL database several
/// servers share (docs/cluster.md, "Moving an existing install").
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy a data folder's accounts, galleries, library index and signing key into PostgreSQL.",
        discussion: """
            Copies from the SQLite database in the data folder (--data or TESSERA_DATA): accounts with their \
            password hashes and access tokens; galleries with their items in order, revisions, Recently deleted, \
            owners and members; the photo library index; the image-signing key. Not the response cache (it \
            refills), sessions (everyone signs in again) or sign-in failures. The gallery image copies stay \
            where they are: give the servers the same media folder (TESSERA_MEDIA) or copy it there. The database's schema is migrated first; \
            each gallery is copied in a transaction, by id, so running it again duplicates nothing and makes \
            every copied gallery as it is in SQLite. Stop tessera serve on the data folder first (or run again \
            once it is stopped). Then both databases are counted, and the counts printed.
            Exit status: 0 done and verified, 1 failure or counts that differ, 2 bad input.
            """)

    @Option(
        name: .customLong("to"),
        help: ArgumentHelp("The PostgreSQL database: postgres://user:password@host:5432/db?sslmode=…", valueName: "url")
    )
    var destination: String

    @Flag(
        name: .customLong("replace-secret"),
        help: "Replace a different image-signing key the database already holds with the data folder's.")
    var replaceSecret = false

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let configuration = try Exit.configuration(common)
        let url: PostgresURL
        do throws(SharedDatabaseError) {
            url = try PostgresURL(parsing: destination)
        } catch {
            guard case .malformedURL(let reason) = error else { throw Exit.badInput(error.description) }
            throw Exit.badInput("--to is not a PostgreSQL URL: \(reason).")
        }
        let logger = Logger(label: "tessera.migrate", factory: { _ in SwiftLogNoOpLogHandler() })
        let migration = DataFolderMigration(
            dataDirectory: configuration.dataDirectory.standardizedFileURL,
            mediaDirectory: configuration.mediaDirectory.standardizedFileURL, url: url, replaceSecret: replaceSecret,
            logger: logger)
        Terminal.out("Copying \(migration.dataDirectory.path) into \(url.redacted)\n")
        let report: MigrationReport
        do throws(MigrationError) {
            report = try await migration.run { Terminal.error($0 + "\n") }
        } catch {
            throw error.isBadInput ? Exit.badInput(error.description) : Exit.failure(error.description)
        }
        Terminal.out(MigrationTable.render(report, media: migration.mediaDirectory.path))
        guard report.verified else {
            throw Exit.failure(
                "the copy does not match SQLite (above). Was tessera serve still writing to the data folder? "
                    + "Stop it and run the same command again.")
        }
    }
}

/// The verified counts, and what the operator must still do about the key and the image copies.
enum MigrationTable {
    static func render(_ report: MigrationReport, media: String) -> String {
        let width = max(report.counts.map(\.what.count).max() ?? 0, 4)
        func pad(_ text: String, _ count: Int, right: Bool = false) -> String {
            let space = String(repeating: " ", count: max(0, count - text.count))
            return right ? space + text : text + space
        }
        var text = "\n\(pad("", width))  \(pad("SQLite", 8, right: true))  \(pad("PostgreSQL", 10, right: true))\n"
        for count in report.counts {
            text +=
                "\(pad(count.what, width))  \(pad("\(count.sqlite)", 8, right: true))  "
                + "\(pad("\(count.postgres)", 10, right: true))\(count.matches ? "" : "  differs")\n"
        }
        text += "\n"
        if report.unorderedGalleries.isEmpty {
            text += "Every gallery's items are in the same order on both sides.\n"
        } else {
            text += "Items in another order in PostgreSQL: \(report.unorderedGalleries.joined(separator: ", ")).\n"
        }
        if !report.unsharedGalleries.isEmpty {
            text +=
                "Owner or members differ in PostgreSQL: \(report.unsharedGalleries.joined(separator: ", ")).\n"
        }
        if !report.otherAccounts.isEmpty {
            text +=
                "PostgreSQL also holds accounts not in this data folder, left as they are: "
                + "\(report.otherAccounts.joined(separator: ", ")).\n"
        }
        if report.otherGalleries > 0 {
            text +=
                "PostgreSQL also holds \(report.otherGalleries) galleries not in this data folder, left as they are.\n"
        }
        switch report.secret {
        case .copied: text += "Image-signing key: copied; image links signed before stay valid.\n"
        case .alreadyThere: text += "Image-signing key: already the same in PostgreSQL.\n"
        case .replaced: text += "Image-signing key: replaced the database's with the data folder's.\n"
        case .noneInFolder:
            text +=
                "Image-signing key: none in the data folder (TESSERA_SECRET in use?): set the same TESSERA_SECRET on every server.\n"
        }
        text +=
            "Image copies: \(report.imageCopies) named by the galleries, in \(media); they are not copied. "
            + "Give every server TESSERA_MEDIA=\(media), or copy that folder to where TESSERA_MEDIA points.\n"
        if report.missingImages > 0 {
            text +=
                "warning: \(report.missingImages) of \(report.imageCopies) image copies are not in \(media): "
                + "their items will show no image. Is this the media folder (TESSERA_MEDIA) tessera serve used?\n"
        }
        return text
    }
}
