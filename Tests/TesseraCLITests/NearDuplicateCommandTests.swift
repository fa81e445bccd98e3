import Foundation
import TesseraGalleries
import TesseraTestSupport
import Testing

/// `tessera gallery add` of a picture the gallery already holds (docs/galleries.md, "Near duplicates"), as a
/// process, locally and with `--server`: refused with exit 1, naming the item there and the flag, nothing
/// added; added with `--allow-near-duplicate`.
@Suite("tessera gallery add: near duplicates, run as processes")
struct NearDuplicateCommandTests {
    @Test func aNearDuplicateIsRefusedUnlessAllowedLocallyAndThroughAServer() async throws {
        try await RemoteCommandTests().withServer { local, server, scratch in
            for (place, extra) in [("locally", [String]()), ("with --server", ["--server", server])] {
                let created = try await CLIProcess.run(
                    ["gallery", "create", "Birds \(place)", "--json"] + extra, environment: local)
                try #require(created.status == 0, "\(created.stderr)")
                let gallery = try JSONDecoder().decode(Gallery.self, from: Data(created.stdout.utf8)).id.rawValue

                let heron = scratch.appendingPathComponent("grey heron.jpg")
                try Data(StandInImage.jpeg).write(to: heron)
                // The same picture in other bytes (a JPEG comment), so a file of its own.
                let again = scratch.appendingPathComponent("heron again.jpg")
                try Data([0xFF, 0xD8, 0xFF, 0xFE, 0x00, 0x07] + Array("again".utf8) + StandInImage.jpeg.dropFirst(2))
                    .write(to: again)
                let first = try await CLIProcess.run(
                    ["gallery", "add", gallery, heron.path] + extra, environment: local)
                #expect(first.status == 0, "\(place): \(first.stderr)")

                let refused = try await CLIProcess.run(
                    ["gallery", "add", gallery, again.path] + extra, environment: local)
                #expect(refused.status == 1, "\(place): \(refused.stdout)")
                #expect(refused.stderr.contains("already has a picture that looks the same (“grey heron”)"), "\(place)")
                #expect(refused.stderr.contains("--allow-near-duplicate") && !refused.stderr.contains("Add it anyway?"))
                let listed = try await CLIProcess.run(["gallery", "list", "--json"] + extra, environment: local)
                let galleries = try JSONDecoder().decode([Gallery].self, from: Data(listed.stdout.utf8))
                #expect(galleries.first { $0.id.rawValue == gallery }?.itemCount == 1, "\(place): nothing added")

                let allowed = try await CLIProcess.run(
                    ["gallery", "add", gallery, again.path, "--allow-near-duplicate"] + extra, environment: local)
                #expect(allowed.status == 0, "\(place): \(allowed.stderr)")
                #expect(allowed.stdout.hasPrefix("Added \"heron again\""), "\(place): \(allowed.stdout)")
            }
        }
    }
}
