import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// What a server holds it gives back when it stops, rather than whenever the last reference goes: in one
/// process running many apps (the tests, or an embedder) the handles would otherwise pile up to the
/// open-file limit.
@Suite("Shutting down")
struct ShutdownTests {
    @Test("A stopped server has no file of its data folder open")
    func theDataFolderIsLetGo() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-stop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        try await withTessera([], dataFolder: data) { client, _ in
            // A gallery: the database is written and read.
            let made = try await client.execute(
                uri: "/api/galleries", method: .post, headers: [.contentType: "application/json"],
                body: .init(string: #"{"name":"Kept"}"#))
            #expect(made.status == .created)
            #expect(!Self.openFiles(under: data).isEmpty, "the running server has its database open")
        }
        #expect(Self.openFiles(under: data) == [])
    }

    /// The files this process has open under `folder`, as Linux lists them in /proc/self/fd.
    static func openFiles(under folder: URL) -> [String] {
        let manager = FileManager.default
        let prefix = folder.resolvingSymlinksInPath().path + "/"
        let descriptors = (try? manager.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { try? manager.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
            .filter { $0.hasPrefix(prefix) || $0.hasPrefix(folder.path + "/") }
    }
}
