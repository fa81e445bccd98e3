import ArgumentParser
import Foundation
import TesseraCore
import TesseraGalleries

/// `tessera gallery credits GALLERY [--format text|html|markdown]`: the credits the API's
/// `GET /api/galleries/{id}/credits` and the export's CREDITS.txt and credits.html give (docs/licences.md).
struct GalleryCredits: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credits",
        abstract: "Print a gallery's credits: every item's attribution and licence, with warnings.",
        discussion: """
            Warnings name the items that may not be used commercially, may not be changed, or whose licence \
            is unknown. text is CREDITS.txt, html is credits.html (a whole page), markdown is for a README.
            """)

    enum Format: String, CaseIterable {
        case text, html, markdown
    }

    @Argument(help: ArgumentHelp("The gallery's id or name (in Recently deleted too).", valueName: "gallery"))
    var gallery: String

    @Option(help: ArgumentHelp("text (the default), html or markdown.", valueName: "format"))
    var format: String = "text"

    @OptionGroup var common: CommonOptions
    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        guard let format = Format(rawValue: format.lowercased()) else {
            throw Exit.badInput("--format is \"\(format.prefix(20))\"; use text, html or markdown.")
        }
        if let client = try remote.client(try Exit.configuration(common)) {
            let target = try await Remote.find(gallery, on: client)
            return Terminal.out(try await Remote.credits(of: target, format: format.rawValue, on: client))
        }
        let credits = try await GalleryCLI.withEnvironment(common) { environment in
            let target = try await GalleryCLI.find(gallery, in: environment.galleries)
            return try await GalleryCLI.run { () async throws(GalleryError) in
                try await environment.galleries.credits(target.id, by: .everyone).credits
            }
        }
        switch format {
        case .text: Terminal.out(credits.text)
        case .html: Terminal.out(credits.html)
        case .markdown: Terminal.out(credits.markdown)
        }
    }
}
