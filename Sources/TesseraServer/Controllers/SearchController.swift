import Foundation
import HTTPTypes
import Hummingbird
import TesseraCore
import TesseraImageProxy

/// `/api/search` (the whole answer) and `/api/search/stream` (server-sent events, a section as each
/// source completes, then `groups`, then `done`).
struct SearchController<Context: ConnectionRequestContext> {
    let search: SearchService
    let linker: any ImageLinking
    /// Whose hashes group the pictures by look, and who makes the thumbnails the prefetch asks for.
    let proxy: ImageProxy
    /// `TESSERA_IMAGE_PREFETCH`: make each streamed page's thumbnails at once (`ThumbnailPrefetch`).
    var prefetch = true
    /// `TESSERA_IMAGE_PREFETCH_WAIT`: how long the stream waits for them after its last section.
    var prefetchWait = ThumbnailPrefetch.defaultWait
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
    /// so once the slowest answers only its own section, the groups and a concatenation remain: the bytes are
    /// the same as encoding the whole `SearchResponse` (see `JSONBody.searchResponse`). The groups come from
    /// identity and the hashes known at once; unlike the stream, this answer does not wait for thumbnails.
    ///
    /// `Server-Timing: sources;dur=…, total;dur=…` tells how long the slowest section waited on its service
    /// and how long the whole answer took the server (without sending it): the difference is ours.
    private func whole(_ request: Request) async throws -> Response {
        let started = ContinuousClock.now
        let searchRequest = try validated(request)
        var sections: [(id: SectionID, json: ByteBuffer)] = []
        // Each section is grouped with those before it as it arrives, while slower sources are still working
        // (`PictureGrouper`): from its items as the service gave them, so no signature is checked. Hashes are in
        // memory or, for pictures never hashed (most), known absent without asking the database. Meanwhile a
        // child task signs and encodes the section on the machine's other core: after the slowest source, the
        // two halves of its section's work overlap (docs/search.md, "The slowest section's path").
        var grouper = PictureGrouper()
        var slowestSource = Duration.zero
        await search.sections(searchRequest) { section in
            slowestSource = max(slowestSource, section.sourceTime ?? .zero)
            async let json = JSONBody.sectionBuffer(section.linkingImages(with: linker))
            let known = await PageGrouping.read(section.items, proxy)
            grouper.add(section.items, part: section.id.order, hashes: known.hashes, identities: known.identities)
            sections.append((section.id, await json))
        }
        sections.sort { $0.id < $1.id }
        let groups = grouper.groups().map(SearchResponse.Group.init)
        let body = JSONBody.searchResponse(
            query: searchRequest.query, scope: searchRequest.scope.rawValue, page: searchRequest.page,
            encodedSections: sections.map(\.json), groups: groups)
        var response = JSONBody.response(json: body)
        response.headers[HTTPField.Name("Server-Timing")!] =
            "sources;dur=\(Self.milliseconds(slowestSource)), total;dur=\(Self.milliseconds(ContinuousClock.now - started))"
        return response
    }

    private func stream(_ request: Request, _ connection: ConnectionHandle) throws -> Response {
        let searchRequest = try validated(request)
        let sections = search.stream(searchRequest)
        let (linker, proxy, prefetch, wait) = (self.linker, self.proxy, self.prefetch, self.prefetchWait)
        return ServerSentEvents.stream(events, connection: connection) { sink in
            // A comment line first, so proxies and browsers see the stream open at once.
            sink.send(ByteBuffer(string: ": tessera search\n\n"))
            let thumbnails = prefetch ? ThumbnailPrefetch(proxy: proxy) : nil
            defer { thumbnails?.cancel() }
            var page: [(id: SectionID, items: [Item])] = []
            for await section in sections {
                let linked = section.linkingImages(with: linker)
                sink.send(ServerSentEvents.event("section", json: JSONBody.encode(linked)))
                // Grouped from the items as the service gave them, as `whole` does: no signature to check.
                page.append((section.id, section.items))
                thumbnails?.add(linked.items)
            }
            await thumbnails?.finish(within: wait)
            // In the page's order (the sections' fixed order), whichever source answered first.
            let items = page.sorted { $0.id < $1.id }.flatMap(\.items)
            let groups = await proxy.pictureGroups(of: items)
            sink.send(ServerSentEvents.event("groups", json: JSONBody.encode(Groups(groups: groups))))
            let done = Done(
                query: searchRequest.query, scope: searchRequest.scope.rawValue, page: searchRequest.page,
                sections: page.count)
            sink.send(ServerSentEvents.event("done", json: JSONBody.encode(done)))
        }
    }

    /// Milliseconds with two decimals, as `Server-Timing` writes them.
    static func milliseconds(_ duration: Duration) -> String {
        String((duration.milliseconds * 100).rounded() / 100)
    }

    /// The event before `done`: the copies of one picture among the page's items (groups of two or more),
    /// each with the copy to show, listed first.
    struct Groups: Encodable {
        let groups: [SearchResponse.Group]
    }

    /// The last event: what was searched and how many sections were sent.
    struct Done: Encodable {
        let query: String
        let scope: String
        let page: Int
        let sections: Int
    }
}

/// What grouping a page needs of some of its items, read ahead of the grouping itself.
struct PageGrouping: Sendable {
    var hashes: [ItemID: PerceptualHash] = [:]
    var identities: [ItemID: [String]] = [:]

    /// The thumbnails' hashes known now (memory, then one database query) and each picture's identity keys.
    static func read(_ items: [Item], _ proxy: ImageProxy) async -> PageGrouping {
        var read = PageGrouping(hashes: await proxy.thumbnailHashes(of: items))
        for item in items where item.kind == .image { read.identities[item.id] = PictureIdentity.keys(of: item) }
        return read
    }
}
