import Foundation
import TesseraCore
import Testing

/// The streamed atomic write: the file is there whole once the body returns, or not changed at all.
@Suite("Atomic file, streamed")
struct AtomicFileStreamTests {
    struct Stop: Error {}

    func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-atomic-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    func leftovers(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix(AtomicFile.temporaryPrefix)
        }
    }

    @Test func piecesWrittenInTurnMakeTheFile() async throws {
        try await withFolder { folder in
            let file = folder.appendingPathComponent("export.zip")
            try await AtomicFile.write(to: file, syncFolder: true) { handle in
                for piece in ["one ", "two ", "three"] { try handle.write(contentsOf: Data(piece.utf8)) }
                #expect(!FileManager.default.fileExists(atPath: file.path), "not under its name before the end")
            }
            #expect(try String(contentsOf: file, encoding: .utf8) == "one two three")
            #expect(try leftovers(in: folder).isEmpty)
        }
    }

    @Test func aFailingBodyLeavesTheOldFileAndNoTemporary() async throws {
        try await withFolder { folder in
            let file = folder.appendingPathComponent("export.zip")
            try AtomicFile.write(Data("old".utf8), to: file)
            await #expect(throws: Stop.self) {
                try await AtomicFile.write(to: file) { handle in
                    try handle.write(contentsOf: Data("half".utf8))
                    throw Stop()
                }
            }
            #expect(try String(contentsOf: file, encoding: .utf8) == "old")
            #expect(try leftovers(in: folder).isEmpty)
        }
    }
}
