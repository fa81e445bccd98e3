import Foundation
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// `tessera gallery credits`, run as a process on the data folder and with `--server`: the same credits
/// either way, in each format, and bad input refused (exit 2).
extension RemoteCommandTests {
    @Test func galleryCreditsPrintTheSameLocallyAndFromAServer() async throws {
        try await withServer { local, server, scratch in
            let created = try await CLIProcess.run(["gallery", "create", "Book <cover>", "--json"], environment: local)
            #expect(created.status == 0, "\(created.stderr)")
            let gallery = try JSONDecoder().decode(Gallery.self, from: Data(created.stdout.utf8))
            let search = try await CLIProcess.run(
                ["search", "fox", "--scope", "pixabay", "--json"], environment: local)
            let first = try #require(
                try JSONDecoder().decode(SearchResponse.self, from: Data(search.stdout.utf8)).sections.first?.items
                    .first)
            let added = try await CLIProcess.run(
                ["gallery", "add", gallery.id.rawValue, first.id.description], environment: local)
            #expect(added.status == 0, "\(added.stderr)")
            let photo = scratch.appendingPathComponent("dunes.jpg")
            try Data(StandInImage.jpeg).write(to: photo)
            let uploaded = try await CLIProcess.run(
                ["gallery", "add", "book <cover>", photo.path, "--allow-near-duplicate"], environment: local)
            #expect(uploaded.status == 0, "\(uploaded.stderr)")

            let text = try await same(["gallery", "credits", "BOOK <cover>"], local, server)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.first == "Credits for “Book <cover>”")
            #expect(
                lines.contains(
                    "Warning: 1 of 2 items has an unknown licence, so do not reuse it without asking the creator:"
                        + " #2 “dunes”."), "\(text)")
            #expect(lines.contains { $0.hasPrefix("1. “\(first.title)”") && $0.contains("Pixabay Content License") })
            #expect(
                lines.contains(
                    "   Pixabay Content License (pixabay): You may use this commercially. You may change it. No credit required."
                ))
            #expect(lines.contains("2. “dunes” is under an unknown licence: ask the creator before any reuse."))

            let html = try await same(["gallery", "credits", gallery.id.rawValue, "--format", "html"], local, server)
            #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<h1>Credits for “Book &lt;cover&gt;”</h1>"))
            let markdown = try await same(
                ["gallery", "credits", "book <cover>", "--format", "markdown"], local, server)
            #expect(markdown.hasPrefix("# Credits for “Book \\<cover\\>”\n"))
            #expect(
                markdown.contains("\n2. “dunes” is under an unknown licence: ask the creator before any reuse.  \n"))

            for arguments in [["book <cover>", "--format", "xml"], ["no such gallery"]] {
                for remote in [[], ["--server", server]] {
                    let refused = try await CLIProcess.run(
                        ["gallery", "credits"] + arguments + remote, environment: local)
                    #expect(refused.status == 2, "\(arguments) \(remote): \(refused.stderr)")
                    #expect(refused.stdout.isEmpty)
                }
            }
        }
    }
}
