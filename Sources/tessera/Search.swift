import ArgumentParser
import Foundation
import TesseraCore
import TesseraServer

/// `tessera search`: the same search as the API, as a table for people or the API's JSON for scripts.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search every enabled source (or one section) and print the results.",
        discussion: "Exit status: 0 when at least one source answered, 1 when every source failed, 2 on bad input.")

    @Argument(help: "What to search for (1–100 characters).")
    var query: String

    @Option(
        help: ArgumentHelp(
            "all, or one section: \(SectionID.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "scope"))
    var scope: String = "all"

    @Option(help: ArgumentHelp("Page number, 20 results a page (1–\(SearchRequest.maxPage)).", valueName: "n"))
    var page: String = "1"

    @Option(
        help: ArgumentHelp(
            "Only licences allowing it: reusable (any licence that lets you reuse it), commercial, modification"
                + " and/or licence ids (cc0,cc-by-sa).", valueName: "list")
    )
    var license: String?

    @Option(help: ArgumentHelp("landscape, portrait or square.", valueName: "orientation"))
    var orientation: String?

    @Option(help: ArgumentHelp("small, medium or large (by the shorter side: 640 and 1600 px).", valueName: "size"))
    var size: String?

    @Option(help: ArgumentHelp("A colour (red, blue, grayscale, transparent...).", valueName: "color"))
    var color: String?

    @Option(help: ArgumentHelp("photo, illustration or vector.", valueName: "type"))
    var type: String?

    @Flag(help: "Print the API's exact JSON instead of a table.")
    var json = false

    @OptionGroup var common: CommonOptions
    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let request: SearchRequest
        do {
            let filters = try SearchFilters.parse(
                license: license, orientation: orientation, size: size, color: color, type: type)
            request = try SearchRequest(query: query, scope: scope, page: page, filters: filters)
        } catch {
            throw Exit.badInput(error.message)
        }
        let configuration = try Exit.configuration(common)
        let response: SearchResponse
        if let client = try remote.client(configuration) {
            response = try await Remote.search(request, on: client)
        } else {
            let logger = Terminal.bootstrapLogging(level: .warning, format: configuration.logFormat)
            let environment = try await AppEnvironment.live(configuration, logger: logger)
            let found = await environment.search.search(request)
            var linked = found.linkingImages(with: environment.imageLinker)
            // As the server's /api/search does: identity, and the hashes of thumbnails made before, read from
            // the items as the services gave them.
            linked.groups = await environment.imageProxy.pictureGroups(of: found.sections.flatMap(\.items))
            response = linked
            try await environment.shutdown()
        }

        if json {
            Terminal.out(String(decoding: JSONBody.encode(response), as: UTF8.self) + "\n")
        } else {
            Terminal.out(SearchTable.render(response))
        }
        guard response.anySectionAnswered else {
            let reasons = response.sections.compactMap(\.error?.message)
            let why = reasons.isEmpty ? "no source is enabled" : reasons.joined(separator: "\n  ")
            throw Exit.failure("every source failed:\n  \(why)")
        }
    }
}
