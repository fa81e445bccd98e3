import ArgumentParser
import Foundation
import TesseraCore
import TesseraGalleries
import TesseraServer

/// `tessera gallery`: galleries from a terminal. Works on the data folder itself, through the same service
/// the API uses, so a running `tessera serve` sees the changes (its open pages within a second).
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "List, create, fill and export galleries, and print their credits.",
        discussion: """
            GALLERY is a gallery id (g_…) or its name (exact, any case). Works while tessera serve runs on \
            the same data folder, or on a running Tessera with --server (TESSERA_SERVER).
            Exit status: 0 done, 1 failure, 2 bad input (including an unknown or ambiguous GALLERY).
            """,
        subcommands: [
            ListGalleries.self, CreateGallery.self, AddToGallery.self, ExportGallery.self, GalleryCredits.self,
        ])
}

/// `tessera gallery list`.
struct ListGalleries: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the galleries, most recently updated first.")

    @Flag(help: "List Recently deleted instead, most recently deleted first.")
    var deleted = false

    @Flag(help: "Print the API's JSON (GET /api/galleries) instead of a table.")
    var json = false

    @OptionGroup var common: CommonOptions
    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let galleries =
            if let client = try remote.client(try Exit.configuration(common)) {
                try await Remote.galleries(deleted: deleted, on: client)
            } else {
                try await GalleryCLI.withEnvironment(common) { environment in
                    try await GalleryCLI.run { () async throws(GalleryError) in
                        try await environment.galleries.list(deleted: deleted, by: .everyone)
                    }
                }
            }
        if json {
            Terminal.out(GalleryCLI.json(galleries))
        } else {
            Terminal.out(GalleryTable.render(galleries, deleted: deleted))
        }
    }
}

/// `tessera gallery create NAME`.
struct CreateGallery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Create an empty gallery.")

    @Argument(help: "Its name, 1–100 characters (names need not be unique).")
    var name: String

    @Flag(help: "Print the API's JSON (what POST /api/galleries answers).")
    var json = false

    @OptionGroup var common: CommonOptions
    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let gallery =
            if let client = try remote.client(try Exit.configuration(common)) {
                try await Remote.createGallery(named: name, on: client)
            } else {
                try await GalleryCLI.withEnvironment(common) { environment in
                    try await GalleryCLI.run { () async throws(GalleryError) in
                        try await environment.galleries.create(name: name, by: .everyone)
                    }
                }
            }
        Terminal.out(json ? GalleryCLI.json(gallery) : "Created \(GalleryTable.quoted(gallery.name)) (\(gallery.id))\n")
    }
}

/// `tessera gallery add GALLERY (URL | FILE | SOURCE:ID)`.
struct AddToGallery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an image: from a web address, a file, or a search result (SOURCE:ID).",
        discussion: """
            An http(s) address is fetched as the API's URL import does; an existing file is uploaded (at most \
            TESSERA_IMAGE_MAX_MB); anything else is an item id as tessera search shows it (pixabay:195893, \
            local:…), looked up at its source. The gallery keeps its own copy of the image.
            """)

    @Argument(help: ArgumentHelp("The gallery's id or name.", valueName: "gallery"))
    var gallery: String

    @Argument(help: ArgumentHelp("An http(s) URL, an image file, or SOURCE:ID.", valueName: "image"))
    var image: String

    // Unconditional, so `--index -1` reaches the check below instead of reading as an unknown flag.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Where it goes, 0-based (0 is first). Default: at the end.", valueName: "n"))
    var index: String?

    @Flag(help: "Add it even when the gallery already holds the same picture (else it is refused, exit 1).")
    var allowNearDuplicate = false

    @Flag(help: "Print the API's JSON (the gallery item POST /api/galleries/{id}/items answers).")
    var json = false

    @OptionGroup var common: CommonOptions
    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let index = try index.map { text in
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw Exit.badInput("--index must be a whole number (0 is the first place).")
            }
            return value
        }
        let what = try ImageArgument(image)
        let configuration = try Exit.configuration(common)
        let target: Gallery
        let added: (item: GalleryItem, index: Int)
        if let client = try remote.client(configuration) {
            target = try await Remote.find(gallery, on: client)
            added = try await Remote.add(
                what, to: target, at: index, allowNearDuplicate: allowNearDuplicate,
                maxBytes: configuration.images.maxBytes, on: client)
        } else {
            (target, added) = try await GalleryCLI.withEnvironment(common) { environment in
                let target = try await GalleryCLI.find(gallery, in: environment.galleries)
                let added = try await add(what, to: target.id, at: index, environment)
                return (target, (added.item, added.index))
            }
        }
        if json {
            Terminal.out(GalleryCLI.json(added.item))
        } else {
            Terminal.out(
                "Added \(GalleryTable.quoted(added.item.item.title)) to \(GalleryTable.quoted(target.name)) at index "
                    + "\(added.index) (\(added.item.id), \(GalleryTable.bytes(added.item.size)))\n")
        }
    }

    private func add(_ what: ImageArgument, to id: GalleryID, at index: Int?, _ environment: AppEnvironment)
        async throws -> (item: GalleryItem, index: Int, revision: Int)
    {
        let galleries = environment.galleries
        switch what {
        case .url(let url):
            return try await GalleryCLI.run { () async throws(GalleryError) in
                try await galleries.add(
                    url: url, to: id, at: index, by: .everyone, allowNearDuplicate: allowNearDuplicate)
            }
        case .file(let file):
            let data = try ImageArgument.read(file, limit: environment.configuration.images.maxBytes)
            return try await GalleryCLI.run { () async throws(GalleryError) in
                try await galleries.add(
                    upload: data, fileName: file.lastPathComponent, to: id, at: index, by: .everyone,
                    allowNearDuplicate: allowNearDuplicate)
            }
        case .item(let itemID):
            let item: Item
            do {
                item = try await environment.search.item(itemID)
            } catch {
                // An id the source does not know is a typo; anything else is the source's trouble.
                if case .notFound = error { throw Exit.badInput(error.message) }
                throw Exit.failure(error.message)
            }
            // This process is the server's own code on its own data folder: it names the image by reference
            // rather than signing an address for the gallery service to check again. The item is kept with
            // signed addresses, as one added through the API is.
            guard let image = item.largestImage else {
                throw Exit.badInput("\(itemID) has no image to keep.")
            }
            let linked = item.linkingImages(with: environment.imageLinker)
            return try await GalleryCLI.run { () async throws(GalleryError) in
                try await galleries.add(
                    item: linked, image: image, to: id, at: index, by: .everyone,
                    allowNearDuplicate: allowNearDuplicate)
            }
        }
    }
}

// MARK: - Shared

/// What the subcommands share: the environment, finding a gallery, errors as exit codes.
enum GalleryCLI {
    /// Runs `body` with the live environment of the data folder, and shuts that down however `body` ends.
    static func withEnvironment<T>(
        _ common: CommonOptions, _ body: (AppEnvironment) async throws -> T
    ) async throws -> T {
        let configuration = try Exit.configuration(common)
        let logger = Terminal.bootstrapLogging(level: .warning, format: configuration.logFormat)
        let environment: AppEnvironment
        do {
            environment = try await AppEnvironment.live(configuration, logger: logger)
        } catch {
            throw Exit.failure("Could not open the data folder \(configuration.dataDirectory.path): \(error)")
        }
        do {
            let result = try await body(environment)
            try? await environment.shutdown()
            return result
        } catch {
            try? await environment.shutdown()
            throw error
        }
    }

    /// The gallery `argument` names (an id, or a name the service looks up); an unknown or ambiguous name
    /// is bad input, said with the ids to choose from.
    static func find(_ argument: String, in galleries: GalleryService) async throws -> Gallery {
        do throws(GalleryError) {
            return try await galleries.find(argument)
        } catch {
            throw findFailure(argument, error)
        }
    }

    /// Why `argument` names no one gallery: no such gallery and an ambiguous name with the ids to choose
    /// from are bad input; anything else as `exitCode(for:)` says. (Also for `--server`, which finds alike.)
    static func findFailure(_ argument: String, _ error: GalleryError) -> ExitCode {
        switch error {
        case .galleryNotFound:
            return Exit.badInput(
                "There is no gallery \(GalleryTable.quoted(argument)); tessera gallery list shows them.")
        case .ambiguousName(let name, let candidates):
            let ids = candidates.map {
                "  \($0.id)  \(GalleryTable.items($0.itemCount)), updated \(GalleryTable.time($0.updatedAt))"
            }
            return Exit.badInput(
                "\(candidates.count) galleries are named \(GalleryTable.quoted(name)); name one by its id:\n"
                    + ids.joined(separator: "\n"))
        default:
            return exitCode(for: error)
        }
    }

    /// Runs a gallery call, turning its error into the exit it calls for (after saying why).
    static func run<T>(_ body: () async throws(GalleryError) -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw exitCode(for: error)
        }
    }

    /// Bad input (a request that cannot be right, or no such gallery) exits 2; anything else, refusals
    /// and failures to fetch or store included, exits 1.
    static func exitCode(for error: GalleryError) -> ExitCode {
        switch error {
        case .galleryNotFound, .ambiguousName, .invalidName, .invalidIndex, .invalidBody, .invalidItem,
            .accountNotFound, .memberNotFound, .invalidMember:
            Exit.badInput(error.description)
        case .itemNotFound, .galleryDeleted, .revisionMismatch, .tooLarge, .fetch, .imaging, .proxy, .storage,
            .readOnly, .ownerOnly, .link:
            Exit.failure(error.description)
        case .nearDuplicate(let duplicate):
            Exit.failure(nearDuplicate(title: duplicate.title))
        }
    }

    /// A refused near duplicate, locally or through a server: the API's question becomes the flag to use.
    static func nearDuplicate(title: String) -> String {
        "This gallery already has a picture that looks the same (“\(title.prefix(200))”); nothing was added. "
            + "To add it anyway, run the same command with --allow-near-duplicate."
    }

    /// The bytes the API sends for `value`, as a line.
    static func json(_ value: some Encodable) -> String {
        String(decoding: JSONBody.encode(value), as: UTF8.self) + "\n"
    }
}

/// What `add` was given, told apart by its shape: an address, a file there is, or an item id.
enum ImageArgument {
    case url(String)
    case file(URL)
    case item(ItemID)

    init(_ argument: String) throws {
        let lowered = argument.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            self = .url(argument)
            return
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) {
            guard !isFolder.boolValue else { throw Exit.badInput("\(argument) is a folder, not an image file.") }
            self = .file(URL(fileURLWithPath: argument))
            return
        }
        guard let id = ItemID(argument) else {
            throw Exit.badInput(
                "\(argument) is not an http(s) address, a file, or an item id like pixabay:195893.")
        }
        guard SourceID.searchable.contains(id.source), id.nativeID.count <= 300 else {
            let sources = SourceID.searchable.map(\.rawValue).joined(separator: ", ")
            throw Exit.badInput("\(argument) is not an item of a source Tessera searches (\(sources)).")
        }
        self = .item(id)
    }

    /// The file's bytes, refusing (without reading it all) a file over `limit`.
    static func read(_ file: URL, limit: Int) throws -> Data {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw Exit.failure("Could not read \(file.path): \(error.localizedDescription)")
        }
        guard data.count <= limit else {
            throw Exit.failure(
                "\(file.lastPathComponent) is larger than \(limit / 1_048_576) MB, more than Tessera takes "
                    + "(TESSERA_IMAGE_MAX_MB).")
        }
        return data
    }
}
