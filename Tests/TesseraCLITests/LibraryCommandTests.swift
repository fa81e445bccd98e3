import Foundation
import TesseraCore
import Testing

@Suite("tessera library, run as a process")
struct LibraryCommandTests {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    /// A library folder and a data folder, removed afterwards.
    private func withFolders(_ body: (_ library: URL, _ environment: [String: String]) async throws -> Void)
        async throws
    {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cli-\(UUID().uuidString)")
        let library = base.appendingPathComponent("Photos")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        try await body(library, ["TESSERA_DATA": base.appendingPathComponent("data").path])
    }

    private func copySamples(to library: URL) throws {
        for folder in ["Cafe", "Pets", "People", "Space"] {
            try FileManager.default.copyItem(
                at: Self.samples.appendingPathComponent(folder), to: library.appendingPathComponent(folder))
        }
    }

    /// The number before `word` in the summary line: `6 added, ...`.
    private func count(_ word: String, in text: String) -> Int? {
        guard let range = text.range(of: #"(\d+) \#(word)"#, options: .regularExpression) else { return nil }
        return Int(text[range].split(separator: " ").first ?? "")
    }

    @Test func indexesAFolderThenSearchesIt() async throws {
        try await withFolders { library, environment in
            try copySamples(to: library)
            let index = try await CLIProcess.run(["library", "index", library.path], environment: environment)
            #expect(index.status == 0, "\(index.stderr)")
            #expect(index.stdout.contains("Indexed \(library.resolvingSymlinksInPath().path)"))
            #expect(index.stdout.contains("6 added, 0 updated, 0 unchanged, 0 removed, 0 skipped"), "\(index.stdout)")
            #expect(index.stderr.contains("Indexing: 6/6 files"), "progress, as plain lines when not a terminal")
            #expect(!index.stderr.contains("\r"))

            let again = try await CLIProcess.run(["library", "index", library.path], environment: environment)
            #expect(again.stdout.contains("0 added, 0 updated, 6 unchanged, 0 removed, 0 skipped"), "\(again.stdout)")

            let table = try await CLIProcess.run(["library", "search", "tabby"], environment: environment)
            #expect(table.status == 0, "\(table.stderr)")
            #expect(table.stdout.contains("Your library · 1 results · page 1"), "\(table.stdout)")
            #expect(table.stdout.contains("Chelsea the tabby cat"))

            let json = try await CLIProcess.run(["library", "search", "spa", "--json"], environment: environment)
            #expect(json.status == 0, "\(json.stderr)")
            let response = try JSONDecoder().decode(SearchResponse.self, from: Data(json.stdout.utf8))
            #expect(response.sections.map(\.id) == [.local])
            #expect(response.sections.first?.total == 3)
        }
    }

    @Test func aMissingFolderIsBadInput() async throws {
        try await withFolders { library, environment in
            let missing = library.appendingPathComponent("not-here").path
            let result = try await CLIProcess.run(["library", "index", missing], environment: environment)
            #expect(result.status == 2)
            #expect(result.stderr.contains("There is no folder \(missing)"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            let search = try await CLIProcess.run(["library", "search", "  "], environment: environment)
            #expect(search.status == 2)
        }
    }

    @Test func skippedFilesAreWarnedAboutAndCounted() async throws {
        try await withFolders { library, environment in
            try copySamples(to: library)
            try Data("not a photo".utf8).write(to: library.appendingPathComponent("broken.jpg"))
            try FileManager.default.createSymbolicLink(
                atPath: library.appendingPathComponent("passwords.jpg").path, withDestinationPath: "/etc/passwd")
            let result = try await CLIProcess.run(["library", "index", library.path], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("warning: broken.jpg: not a readable image"), "\(result.stderr)")
            #expect(result.stderr.contains("warning: passwords.jpg: links to /etc/passwd, outside the library"))
            #expect(result.stdout.contains("6 added"))
            #expect(result.stdout.contains("2 skipped (1 link outside the library, 1 unreadable image)"))
        }
    }

    @Test func anInterruptedRunResumes() async throws {
        try await withFolders { library, environment in
            // Hard links: thousands of files to read at the cost of one.
            let original = library.appendingPathComponent("original.jpg")
            try FileManager.default.copyItem(
                at: Self.samples.appendingPathComponent("Pets/chelsea-the-tabby-cat.jpg"), to: original)
            let total = 4000
            for index in 1..<total {
                let folder = library.appendingPathComponent("Roll \(index / 500)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try FileManager.default.linkItem(at: original, to: folder.appendingPathComponent("cat-\(index).jpg"))
            }

            // Given a run stopped with Ctrl-C once it has saved some work.
            let exited = AsyncStream.makeStream(of: Void.self)
            let child = try Child(["library", "index", library.path], environment: environment) {
                exited.continuation.finish()
            }
            defer { child.removeFiles() }
            let deadline = ContinuousClock.now + .seconds(60)
            while !child.stderr.contains("Indexing: "), child.process.isRunning, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            kill(child.process.processIdentifier, SIGINT)
            // A Ctrl-C has been seen lost under heavy load, with no "Stopping" line ever printed (cause not yet
            // found; docs/library.md). A person presses again, and so does this test, once, saying so in the log:
            // the second press is then the first one seen, so everything below still has to hold.
            let noticed = ContinuousClock.now + .seconds(5)
            while !child.stderr.contains("Stopping"), child.process.isRunning, ContinuousClock.now < noticed {
                try await Task.sleep(for: .milliseconds(20))
            }
            if !child.stderr.contains("Stopping"), child.process.isRunning {
                print("anInterruptedRunResumes: the first SIGINT went unseen for 5 s; sending another")
                kill(child.process.processIdentifier, SIGINT)
            }
            for await _ in exited.stream {}
            #expect(child.process.terminationStatus == 130, "\(child.stdout)\n\(child.stderr)")
            #expect(child.stderr.contains("Interrupted"))
            let saved = try #require(count("added", in: child.stdout))
            #expect(saved > 0 && saved < total)

            // When it runs again, it reads only what is left.
            let resumed = try await CLIProcess.run(["library", "index", library.path], environment: environment)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(count("unchanged", in: resumed.stdout) == saved, "\(resumed.stdout)")
            #expect(count("added", in: resumed.stdout) == total - saved)
            let search = try await CLIProcess.run(["library", "search", "cat", "--json"], environment: environment)
            let response = try JSONDecoder().decode(SearchResponse.self, from: Data(search.stdout.utf8))
            #expect(response.sections.first?.total == total)
        }
    }
}
