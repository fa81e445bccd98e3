import Foundation
import TesseraGalleries
import TesseraTestSupport
import Testing

/// `tessera backup` and `tessera restore`, run as processes. The backup taken under concurrent writes is in
/// BackupWhileWritingTests.swift (the same suite).
@Suite("tessera backup and restore, run as processes")
struct BackupCommandTests {
    /// A fresh folder for data folders and backups, removed afterwards.
    func withFolders(_ body: (URL) async throws -> Void) async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        try await body(base)
    }

    /// A data folder with two galleries and three image copies, made through the CLI; and its backup.
    func backedUpFolder(in base: URL) async throws -> (data: URL, backup: URL) {
        let data = base.appendingPathComponent("data")
        let environment = ["TESSERA_DATA": data.path]
        for name in ["Trips", "Cats"] {
            #expect(try await CLIProcess.run(["gallery", "create", name], environment: environment).status == 0)
        }
        for (variant, gallery) in [(1, "Trips"), (2, "Trips"), (3, "Cats"), (1, "Cats")] {
            let image = base.appendingPathComponent("image-\(variant).jpg")
            try Data(StandInImage.jpeg + Array("variant \(variant)".utf8)).write(to: image)
            // Variants of one picture: added anyway (docs/galleries.md, "Near duplicates").
            let added = try await CLIProcess.run(
                ["gallery", "add", gallery, image.path, "--allow-near-duplicate"], environment: environment)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let backup = base.appendingPathComponent("backup.tessera")
        let result = try await CLIProcess.run(["backup", backup.path], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix("Wrote \(backup.path): 2 galleries, 4 items, 3 image copies, "), "\(result.stdout)")
        return (data, backup)
    }

    /// Nothing at `folder`, and nothing half-restored beside it.
    func expectNothingRestored(at folder: URL) throws {
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        let beside = try FileManager.default.contentsOfDirectory(atPath: folder.deletingLastPathComponent().path)
        #expect(!beside.contains { $0.contains(".restoring-") }, "\(beside)")
    }

    @Test func aDamagedOrCutBackupIsRefusedAndLeavesNothing() async throws {
        try await withFolders { base in
            let (_, backup) = try await backedUpFolder(in: base)
            let bytes = try Data(contentsOf: backup)
            let target = base.appendingPathComponent("restored")

            // One byte of one image changed.
            var flipped = bytes
            let image = try #require(flipped.range(of: Data("variant 3".utf8)))
            flipped[image.lowerBound] ^= 0x01
            let flippedFile = base.appendingPathComponent("flipped.tessera")
            try flipped.write(to: flippedFile)
            let damaged = try await CLIProcess.run(
                ["restore", flippedFile.path, "--data", target.path], environment: [:])
            #expect(damaged.status == 1)
            #expect(damaged.stderr.contains("flipped.tessera is damaged: gallery-images/"), "\(damaged.stderr)")
            #expect(
                damaged.stderr.contains("does not match its SHA-256") && damaged.stderr.contains("Nothing was restored")
            )
            try expectNothingRestored(at: target)

            // Cut in half, and cut by its end marker only.
            for (name, length) in [("half", bytes.count / 2), ("unended", bytes.count - 1024)] {
                let cut = base.appendingPathComponent("\(name).tessera")
                try bytes.prefix(length).write(to: cut)
                let result = try await CLIProcess.run(["restore", cut.path, "--data", target.path], environment: [:])
                #expect(result.status == 1, "\(name)")
                #expect(
                    result.stderr.contains("\(name).tessera is damaged: ") && result.stderr.contains("cut short"),
                    "\(result.stderr)")
                try expectNothingRestored(at: target)
            }

            // A file that is no backup at all: bad input.
            let text = base.appendingPathComponent("notes.txt")
            try Data("hello".utf8).write(to: text)
            let notBackup = try await CLIProcess.run(["restore", text.path, "--data", target.path], environment: [:])
            #expect(notBackup.status == 2)
            #expect(notBackup.stderr.contains("notes.txt is not a Tessera backup"), "\(notBackup.stderr)")
            try expectNothingRestored(at: target)

            // The backup itself restores.
            let restored = try await CLIProcess.run(["restore", backup.path, "--data", target.path], environment: [:])
            #expect(restored.status == 0, "\(restored.stderr)")
            #expect(restored.stdout.contains(": 2 galleries, 4 items, 3 image copies, "), "\(restored.stdout)")
        }
    }

    @Test func aNonEmptyFolderIsRefusedUnlessReplaced() async throws {
        try await withFolders { base in
            let (_, backup) = try await backedUpFolder(in: base)
            let target = base.appendingPathComponent("busy")
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            let keep = target.appendingPathComponent("keep.txt")
            try Data("mine".utf8).write(to: keep)

            let refused = try await CLIProcess.run(["restore", backup.path, "--data", target.path], environment: [:])
            #expect(refused.status == 2)
            #expect(
                refused.stderr.contains("busy is not empty") && refused.stderr.contains("--replace"),
                "\(refused.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["keep.txt"])

            let replaced = try await CLIProcess.run(
                ["restore", backup.path, "--data", target.path, "--replace"], environment: [:])
            #expect(replaced.status == 0, "\(replaced.stderr)")
            let aside = try #require(
                try FileManager.default.contentsOfDirectory(atPath: base.path).first { $0.hasPrefix("busy.replaced-") })
            #expect(
                replaced.stdout.hasPrefix(
                    "Moved the folder that was there to \(base.appendingPathComponent(aside).path)\n"))
            #expect(
                try String(
                    contentsOf: base.appendingPathComponent(aside).appendingPathComponent("keep.txt"), encoding: .utf8)
                    == "mine")
            let listed = try await CLIProcess.run(["gallery", "list"], environment: ["TESSERA_DATA": target.path])
            #expect(
                listed.status == 0 && listed.stdout.contains("Trips") && listed.stdout.contains("Cats"), "\(listed)")

            // An empty folder is taken as it is.
            let empty = base.appendingPathComponent("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let intoEmpty = try await CLIProcess.run(["restore", backup.path, "--data", empty.path], environment: [:])
            #expect(intoEmpty.status == 0, "\(intoEmpty.stderr)")
        }
    }

    @Test func anEmptyDataFolderBacksUpAndRestores() async throws {
        try await withFolders { base in
            let data = base.appendingPathComponent("data")
            let backup = base.appendingPathComponent("empty.tessera")
            let missing = try await CLIProcess.run(["backup", backup.path, "--data", data.path], environment: [:])
            #expect(missing.status == 2 && missing.stderr.contains("There is no data folder at \(data.path)"))
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            let bare = try await CLIProcess.run(["backup", backup.path, "--data", data.path], environment: [:])
            #expect(bare.status == 2 && bare.stderr.contains("holds no Tessera database"), "\(bare.stderr)")
            #expect(!FileManager.default.fileExists(atPath: backup.path))

            // A data folder a command has opened once: a database with nothing in it.
            let environment = ["TESSERA_DATA": data.path]
            #expect(try await CLIProcess.run(["gallery", "list"], environment: environment).status == 0)
            let result = try await CLIProcess.run(["backup", backup.path], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stdout.hasPrefix("Wrote \(backup.path): 0 galleries, 0 items, 0 image copies, "),
                "\(result.stdout)")

            let restored = base.appendingPathComponent("restored")
            let restore = try await CLIProcess.run(["restore", backup.path, "--data", restored.path], environment: [:])
            #expect(restore.status == 0, "\(restore.stderr)")
            let listed = try await CLIProcess.run(
                ["gallery", "list", "--json"], environment: ["TESSERA_DATA": restored.path])
            #expect(listed.status == 0 && listed.stdout == "[]\n", "\(listed)")
            #expect(
                try Data(contentsOf: restored.appendingPathComponent("image-secret"))
                    == Data(contentsOf: data.appendingPathComponent("image-secret")), "the signing key came back")
        }
    }

    @Test func aDamagedOrMissingImageCopyOnDiskStopsTheBackup() async throws {
        try await withFolders { base in
            let (data, backup) = try await backedUpFolder(in: base)
            try FileManager.default.removeItem(at: backup)
            let environment = ["TESSERA_DATA": data.path]
            let images = data.appendingPathComponent("gallery-images")
            let copies = try FileManager.default.subpathsOfDirectory(atPath: images.path).filter { $0.count == 67 }
                .sorted()
            #expect(copies.count == 3)

            // One copy's bytes changed on disk: its name is no longer its hash.
            let damaged = images.appendingPathComponent(copies[0])
            var bytes = try Data(contentsOf: damaged)
            bytes[bytes.count - 1] ^= 0x01
            try bytes.write(to: damaged)
            let refused = try await CLIProcess.run(["backup", backup.path], environment: environment)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("gallery-images/\(copies[0]) no longer matches"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: backup.path), "no backup written")

            // One copy gone.
            try FileManager.default.removeItem(at: damaged)
            let missing = try await CLIProcess.run(["backup", backup.path], environment: environment)
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("names 1 image copy missing from gallery-images/"), "\(missing.stderr)")
            #expect(!FileManager.default.fileExists(atPath: backup.path))
            let left = try FileManager.default.contentsOfDirectory(atPath: data.path).filter {
                $0.hasPrefix(".backup-")
            }
            #expect(left.isEmpty, "the staging folder is removed")
        }
    }

    /// Image copies kept elsewhere (`TESSERA_MEDIA`) are written there, backed up from there, and restored into
    /// the new data folder's own `gallery-images/`.
    @Test func imageCopiesInTheirOwnFolderAreBackedUpFromIt() async throws {
        try await withFolders { base in
            let data = base.appendingPathComponent("data")
            let media = base.appendingPathComponent("shared media")
            let environment = ["TESSERA_DATA": data.path, "TESSERA_MEDIA": media.path]
            #expect(try await CLIProcess.run(["gallery", "create", "Trips"], environment: environment).status == 0)
            let image = base.appendingPathComponent("image.jpg")
            let bytes = Data(StandInImage.jpeg + Array("elsewhere".utf8))
            try bytes.write(to: image)
            let added = try await CLIProcess.run(["gallery", "add", "Trips", image.path], environment: environment)
            #expect(added.status == 0, "\(added.stderr)")
            let hash = GalleryImageFiles.hash(of: bytes)
            let stored = media.appendingPathComponent(String(hash.prefix(2))).appendingPathComponent(hash)
            #expect(try Data(contentsOf: stored) == bytes, "the copy is in TESSERA_MEDIA")
            #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("gallery-images").path))

            let backup = base.appendingPathComponent("backup.tessera")
            let result = try await CLIProcess.run(["backup", backup.path], environment: environment)
            #expect(result.stdout.contains(": 1 gallery, 1 item, 1 image copy, "), "\(result.stdout)")
            let target = base.appendingPathComponent("restored")
            let restored = try await CLIProcess.run(["restore", backup.path, "--data", target.path], environment: [:])
            #expect(restored.status == 0, "\(restored.stderr)")
            let copy = target.appendingPathComponent("gallery-images").appendingPathComponent(String(hash.prefix(2)))
                .appendingPathComponent(hash)
            #expect(try Data(contentsOf: copy) == bytes)
        }
    }

    @Test func onPostgreSQLBackupPointsToPgDump() async throws {
        try await withFolders { base in
            let result = try await CLIProcess.run(
                ["backup", base.appendingPathComponent("b.tessera").path],
                environment: [
                    "TESSERA_DATA": base.path, "TESSERA_DATABASE_URL": "postgres://tessera:secret@127.0.0.1:1/tessera",
                ])
            #expect(result.status == 2)
            #expect(result.stderr.contains("pg_dump") && result.stderr.contains("docs/deploy.md"), "\(result.stderr)")
            #expect(!result.stderr.contains("secret@"), "no password in messages")
        }
    }
}
