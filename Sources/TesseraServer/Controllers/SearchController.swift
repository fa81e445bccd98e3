import Foundation
import HTTPTypes
import Hummingbird
import TesseraCore

/// `/api/search` (the whole answer) and `/api/search/stream` (server-sent events, a section as each
/// source completes, then `done`).
struct SearchController<Context: ConnectionRequestContext> {
    let search: SearchService
    let linker: any ImageLinking
    /// Heartbeats and backlog of `/api/search/stream`.
    var events = ServerSentEvents.Settings()

    func addRoutes(to router: Router<Context>) {
        router.get("/api/search") { request, _ in try await self.whole(request) }
        router.get("/api/search/stream") { request, context in try self.stream(request, context.connection) }
    }

    private func validated(_ request: Request) throws(InputError) -> SearchRequest {
        let parameters = request.uri.queryParameters
        let filters = try SearchFilters.parse(
            license: parameters.get("license"), orientation: parameters.get("orientation"),
            size: parameters.get("size"), color: parameters.get("color"), type: parameters.get("type"))
        return try SearchRequest(
            query: parameters.get("q"), scope: parameters.get("scope"), page: parameters.get("page"),
            filters: filters)
    }

    /// Each section is linked and encoded the moment it arrives, while slower sources are still working,
    /// so once the slowest answers only its own section and a concatenation remain: the bytes are the
    /// same as encoding the whole `SearchResponse` (see `JSONBody.searchResponse`).
    ///
    /// `Server-Timing: sources;dur=…, total;dur=…` tells how long the slowest section waited on its service
    /// and how long the whole answer took the server (without sending it): the difference is ours.
    private func whole(_ request: Request) async throws -> Response {
        let started = ContinuousClock.now
        let searchRequest = try validated(request)
        var sections: [(id: SectionID, json: Data)] = []
        var slowestSource = Duration.zero
        for await section in search.stream(searchRequest) {
            slowestSource = max(slowestSource, section.sourceTime ?? .zero)
            sections.append((section.id, JSONBody.encode(section.linkingImages(with: linker))))
        }
        sections.sort { $0.id < $1.id }
        let body = JSONBody.searchResponse(
            query: searchRequest.query, scope: searchRequest.scope.rawValue, page: searchRequest.page,
            encodedSections: sections.map(\.json))
        var response = JSONBody.response(json: body)
        response.headers[HTTPField.Name("Server-Timing")!] =
            "sources;dur=\(Self.milliseconds(slowestSource)), total;dur=\(Self.milliseconds(ContinuousClock.now - started))"
        return response
    }

    private func stream(_ request: Request, _ connection: ConnectionHandle) throws -> Response {
        let searchRequest = try validated(request)
        let sections = search.stream(searchRequest)
        let linker = self.linker
        return ServerSentEvents.stream(events, connection: connection) { sink in
            // A comment line first, so proxies and browsers see the stream open at once.
            sink.send(ByteBuffer(string: ": tessera search\n\n"))
            var count = 0
            for await section in sections {
                count += 1
                sink.send(ServerSentEvents.event("section", json: JSONBody.encode(section.linkingImages(with: linker))))
            }
            let done = Done(
                query: searchRequest.query, scope: searchRequest.scope.rawValue, page: searchRequest.page,
                sections: count)
            sink.send(ServerSentEvents.event("done", json: JSONBody.encode(done)))
        }
    }

    /// Milliseconds with two decimals, as `Server-Timing` writes them.
    static func milliseconds(_ duration: Duration) -> String {
        String((duration.milliseconds * 100).rounded() / 100)
    }

    /// The last event: what was searched and how many sections were sent.
    struct Done: Encodable {
        let query: String
        let scope: String
        let page: Int
        let sections: Int
    }
}
