import ArgumentParser
import Foundation
import TesseraGalleries

/// `tessera gallery export GALLERY FILE.zip`.
struct ExportGallery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a gallery to a ZIP file: its images in order and gallery.json (as the API's export).",
        discussion: """
            The files of pictures that may not be shared (all rights reserved, store artwork, an unknown \
            licence) are left out; CREDITS.txt lists each with its source page and why. \
            --include-restricted writes them too: a private copy for the gallery's owner. The file appears \
            whole or not at all (written next to it, then renamed); one there is replaced.
            """)

    @Argument(help: ArgumentHelp("The gallery's id or name (in Recently deleted too).", valueName: "gallery"))
    var gallery: String

    @Argument(help: ArgumentHelp("Where to write the ZIP file.", valueName: "file"))
    var file: String

    @Flag(
        help: ArgumentHelp(
            "Write the files of pictures that may not be shared too: a private copy, for the owner only."))
    var includeRestricted = false

    @OptionGroup var common: CommonOptions
    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let destination = URL(fileURLWithPath: file).standardizedFileURL
        var isFolder: ObjCBool = false
        let folder = destination.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw Exit.badInput("There is no folder \(folder.path) to write \(destination.lastPathComponent) in.")
        }
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isFolder), isFolder.boolValue {
            throw Exit.badInput("\(destination.path) is a folder; name the ZIP file to write.")
        }
        if let client = try remote.client(try Exit.configuration(common)) {
            let target = try await Remote.find(gallery, on: client)
            let (zip, restricted) = try await Remote.export(target, includeRestricted: includeRestricted, on: client)
            do {
                // Written next to it, then renamed, as locally.
                try zip.write(to: destination, options: .atomic)
            } catch {
                throw Exit.failure("Could not write \(destination.path): \(error.localizedDescription)")
            }
            return Self.report(
                target, target.itemCount, zip.count, destination, restricted: restricted, includeRestricted)
        }
        let (target, count, size, restricted) = try await GalleryCLI.withEnvironment(common) { environment in
            let target = try await GalleryCLI.find(gallery, in: environment.galleries)
            let export = try await GalleryCLI.run { () async throws(GalleryError) in
                try await environment.galleries.export(
                    target.id, by: .everyone, includeRestricted: includeRestricted)
            }
            let size: Int
            do {
                size = try await export.write(to: destination)
            } catch {
                throw Exit.failure("Could not write \(destination.path): \(error.localizedDescription)")
            }
            return (target, target.itemCount, size, export.restrictedCount)
        }
        Self.report(target, count, size, destination, restricted: restricted, includeRestricted)
    }

    /// The export in one line, and a second on restricted files: how many were left out (or, with
    /// `--include-restricted`, that this is a private copy).
    private static func report(
        _ target: Gallery, _ count: Int, _ size: Int, _ destination: URL, restricted: Int, _ included: Bool
    ) {
        let images = count == 1 ? "1 image" : "\(count) images"
        var text =
            "Exported \(GalleryTable.quoted(target.name)) (\(images)) to \(destination.path) "
            + "(\(GalleryTable.bytes(size)))\n"
        switch (restricted, included) {
        case (0, _): break
        case (_, true):
            text +=
                "This is a private copy: it holds the files of pictures that may not be shared. Keep it to yourself.\n"
        case (let count, false):
            text +=
                "\(count == 1 ? "1 picture" : "\(count) pictures") may not be shared (all rights reserved or an"
                + " unknown licence): \(count == 1 ? "its file was" : "their files were") left out; CREDITS.txt"
                + " lists \(count == 1 ? "it" : "them") with the source page.\n"
        }
        Terminal.out(text)
    }
}
