import Foundation
import TesseraImageProcessing
import TesseraLibrary
import TesseraSQLite

/// The sample photos in `Samples/`, real JPEGs with embedded credits, used as test fixtures.
enum Sample: String, CaseIterable {
    case espresso = "Cafe/espresso-cup-on-a-wooden-table.jpg"
    case cat = "Pets/chelsea-the-tabby-cat.jpg"
    case astronaut = "Space/astronaut-eileen-collins.jpg"
    case rocket = "Space/falcon-9-rocket-launch.jpg"
    case hubble = "Space/hubble-extreme-deep-field.jpg"
    case photographer = "People/photographer-with-camera-on-tripod.jpg"

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    var url: URL { Self.folder.appendingPathComponent(rawValue) }
    var data: Data { (try? Data(contentsOf: url)) ?? Data() }
}

/// A temporary folder that a test fills with files and removes when done.
struct TempFolder {
    let url: URL

    init(_ name: String = "library") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    /// Writes `data` at `path` below the folder, creating folders on the way.
    @discardableResult
    func write(_ data: Data, to path: String) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    @discardableResult
    func copy(_ sample: Sample, to path: String) throws -> URL {
        try write(sample.data, to: path)
    }

    func remove(_ path: String) throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent(path))
    }

    func link(_ path: String, to target: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: target)
    }

    /// Sets the modification time, as an editor saving the file would.
    func touch(_ path: String, _ date: Date) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: date], ofItemAtPath: url.appendingPathComponent(path).path)
    }

    func delete() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A store on a fresh in-memory database and an indexer with real libvips behind it.
struct Library {
    let store: SQLiteLibraryStore
    let indexer: LibraryIndexer

    init(batchSize: Int = 50) throws {
        store = SQLiteLibraryStore(database: try AppDatabase.inMemory())
        indexer = LibraryIndexer(store: store, processor: ImageProcessor(concurrency: 2), batchSize: batchSize)
    }

    func index(_ folder: TempFolder) async throws -> IndexSummary {
        try await indexer.index(folder: folder.path)
    }
}
