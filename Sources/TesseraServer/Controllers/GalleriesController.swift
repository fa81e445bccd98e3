import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle
import TesseraAccounts
import TesseraCore
import TesseraGalleries

/// `/api/galleries...`: galleries and their items, live events and export (see docs/galleries.md).
///
/// Every answer about one gallery carries `ETag: "<revision>"`; mutations honour `If-Match`.
struct GalleriesController<Context: ConnectionRequestContext & PrincipalRequestContext> {
    let galleries: GalleryService
    /// Largest upload accepted (the image size cap), and a ceiling for JSON bodies.
    let maxUploadBytes: Int
    /// Heartbeats and backlog of the gallery event streams.
    var events = ServerSentEvents.Settings()
    /// `TESSERA_AUTH=accounts` (else `nil`): members can be managed (else their routes answer `accounts_off`),
    /// and an open event stream ends on the first heartbeat after its session or token has.
    var accounts: AccountService? = nil
    static var maxJSONBytes: Int { 1 << 20 }

    func addRoutes(to router: Router<Context>) {
        let galleries = galleries
        router.get("/api/galleries") { request, context in
            let deleted = try Self.flag("deleted", request)
            return JSONBody.response(try await galleries.list(deleted: deleted, by: context.galleryViewer))
        }
        router.post("/api/galleries") { request, context in
            let body = try await Self.json(NameBody.self, request)
            let gallery = try await galleries.create(name: body.name, by: context.galleryViewer)
            return Self.answer(gallery, status: .created)
        }
        router.get("/api/galleries/{id}") { _, context in
            Self.answer(try await galleries.gallery(try Self.id(context), by: context.galleryViewer))
        }
        router.patch("/api/galleries/{id}") { request, context in
            let body = try await Self.json(NameBody.self, request)
            let ifRevision = try Self.ifMatch(request)
            return Self.answer(
                try await galleries.rename(
                    try Self.id(context), to: body.name, ifRevision: ifRevision, by: context.galleryViewer))
        }
        router.delete("/api/galleries/{id}") { request, context in
            let ifRevision = try Self.ifMatch(request)
            let id = try Self.id(context)
            if try Self.flag("permanent", request) {
                try await galleries.deletePermanently(id, ifRevision: ifRevision, by: context.galleryViewer)
                return Response(status: .noContent)
            }
            return Self.answer(try await galleries.delete(id, ifRevision: ifRevision, by: context.galleryViewer))
        }
        router.post("/api/galleries/{id}/restore") { request, context in
            let ifRevision = try Self.ifMatch(request)
            return Self.answer(
                try await galleries.restore(try Self.id(context), ifRevision: ifRevision, by: context.galleryViewer))
        }
        router.post("/api/galleries/{id}/items") { request, context in
            try await add(request, context)
        }
        router.delete("/api/galleries/{id}/items/{itemId}") { request, context in
            let ifRevision = try Self.ifMatch(request)
            let id = try Self.id(context)
            let revision = try await galleries.remove(
                try Self.itemID(context), from: id, ifRevision: ifRevision, by: context.galleryViewer)
            return Self.answer(RevisionBody(revision: revision, index: nil), revision: revision)
        }
        router.post("/api/galleries/{id}/items/{itemId}/move") { request, context in
            let body = try await Self.json(MoveBody.self, request)
            let ifRevision = try Self.ifMatch(request)
            let id = try Self.id(context)
            let (revision, index) = try await galleries.move(
                try Self.itemID(context), in: id, to: try Self.checked(index: body.index), ifRevision: ifRevision,
                by: context.galleryViewer)
            return Self.answer(RevisionBody(revision: revision, index: index), revision: revision)
        }
        router.get("/api/galleries/{id}/events") { request, context in
            try await stream(
                request, id: try Self.id(context), viewer: context.galleryViewer, principal: context.principal,
                connection: context.connection)
        }
        router.get("/api/galleries/{id}/export") { request, context in
            let export = try await galleries.export(
                try Self.id(context), by: context.galleryViewer,
                includeRestricted: try Self.flag("includeRestricted", request))
            let body = ResponseBody { writer in
                try await export.write { data in try await writer.write(ByteBuffer(bytes: data)) }
                try await writer.finish(nil)
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/zip", .cacheControl: "no-store",
                    .contentDisposition: "attachment; filename=\"\(export.fileName)\"",
                ],
                body: body)
        }
        addCreditsRoute(to: router)
        addMemberRoutes(to: router)
    }

    // MARK: - Adding

    private func add(_ request: Request, _ context: Context) async throws -> Response {
        let ifRevision = try Self.ifMatch(request)
        let contentType = request.headers[.contentType] ?? ""
        let added: (item: GalleryItem, index: Int, revision: Int)
        if contentType.lowercased().hasPrefix("multipart/form-data") {
            let body = try await Self.collect(request, limit: maxUploadBytes + 64 * 1024, what: "The upload")
            guard let form = MultipartForm(contentType: contentType, body: body), let file = form.part(named: "file")
            else {
                throw GalleryError.invalidBody(MultipartForm.uploadHint)
            }
            guard file.data.count <= maxUploadBytes else {
                throw GalleryError.tooLarge(what: "The upload", limit: maxUploadBytes)
            }
            let index = try form.part(named: "index").map { part in
                // Spaces around are the form's; a sign other than "-", digits of other scripts or past Int are not.
                let text = String(decoding: part.data, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                guard !text.hasPrefix("+"), let value = Int(text) else {
                    throw GalleryError.invalidBody(
                        "The index must be a whole number from 0 to \(Int.largestExactInJSON) (past the end means the end)."
                    )
                }
                return try Self.checked(index: value)
            }
            let allow = try form.part(named: "allowNearDuplicate").map { part in
                switch String(decoding: part.data, as: UTF8.self).trimmingCharacters(in: .whitespaces) {
                case "true": true
                case "false": false
                default: throw GalleryError.invalidBody("allowNearDuplicate is true or false.")
                }
            }
            added = try await galleries.add(
                upload: file.data, fileName: file.fileName, to: try Self.id(context), at: index, ifRevision: ifRevision,
                by: context.galleryViewer, allowNearDuplicate: allow ?? false)
        } else {
            // Before the revision is compared: a malformed body is a 400 whatever the gallery's state.
            let body = try await Self.json(AddItemBody.self, request, refusingNull: true)
            switch (body.item, body.url) {
            case (let item?, nil):
                added = try await galleries.add(
                    item: item, to: try Self.id(context), at: try body.index.map(Self.checked), ifRevision: ifRevision,
                    by: context.galleryViewer, allowNearDuplicate: body.allowNearDuplicate ?? false)
            case (nil, let url?):
                added = try await galleries.add(
                    url: url, to: try Self.id(context), at: try body.index.map(Self.checked), ifRevision: ifRevision,
                    by: context.galleryViewer, allowNearDuplicate: body.allowNearDuplicate ?? false)
            default:
                throw GalleryError.invalidBody(
                    "Send {\"item\": Item} or {\"url\": \"https://…\"} (optionally with \"index\"), or a multipart upload."
                )
            }
        }
        return Self.answer(added.item, status: .created, revision: added.revision)
    }

    // MARK: - Events

    /// The gallery's events as server-sent events; what to send is `GalleryEventStream`'s decision.
    /// With accounts it ends, closing the response, within a heartbeat (`TESSERA_HEARTBEAT`) of the viewer
    /// losing the gallery or the request's session or token ending (docs/accounts.md); a reconnect is then a 404
    /// or a 401.
    private func stream(
        _ request: Request, id: GalleryID, viewer: GalleryViewer, principal: Principal?, connection: ConnectionHandle
    ) async throws -> Response {
        // A browser sends back an id we sent, always a revision; anything else is a client's mistake (400).
        // One past the gallery's revision is not refused: the stream answers it with a snapshot.
        let lastEventID: Int?
        switch RevisionField.lastEventID(request.headers[HTTPField.Name("Last-Event-ID")!]) {
        case .absent: lastEventID = nil
        case .revision(let revision): lastEventID = revision
        case .invalid: throw GalleryError.invalidBody("Last-Event-ID must be a gallery revision, like 17.")
        }
        // Subscribed now, so a missing gallery is a 404, not an empty stream.
        let events = try await galleries.events(of: id, lastEventID: lastEventID, by: viewer)
        let accounts = accounts
        return ServerSentEvents.stream(self.events, connection: connection) { sink in
            sink.send(ByteBuffer(string: ": tessera gallery \(id)\n\n"))
            // A stream never ends by itself: it must not hold up a graceful shutdown.
            for try await event in events.cancelOnGracefulShutdown() {
                switch event {
                case .snapshot(let gallery):
                    sink.send(Self.event("snapshot", id: gallery.revision, gallery))
                case .change(let change):
                    if let event = Self.event(for: change) { sink.send(event) }
                case .gone:
                    sink.send(Self.event("gone", id: nil, EmptyBody()))
                case .heartbeat:
                    // `ServerSentEvents.stream` sends its own comment; this one is for checks (access: above).
                    if let accounts, let principal, try await !accounts.isCurrent(principal) { return }
                }
            }
        }
    }

    static func event(for change: GalleryChange) -> ByteBuffer? {
        switch change {
        case .added(let revision, let index, let item):
            event("added", id: revision, AddedEvent(revision: revision, index: index, item: item))
        case .removed(let revision, let itemID):
            event("removed", id: revision, ItemEvent(revision: revision, itemId: itemID, index: nil))
        case .moved(let revision, let itemID, let index):
            event("moved", id: revision, ItemEvent(revision: revision, itemId: itemID, index: index))
        case .renamed(let revision, let name):
            event("renamed", id: revision, RenamedEvent(revision: revision, name: name))
        case .deleted(let revision, let deletedAt):
            event("deleted", id: revision, DeletedEvent(revision: revision, deletedAt: deletedAt))
        case .restored(let revision):
            event("restored", id: revision, RevisionBody(revision: revision, index: nil))
        case .created, .gone:
            nil
        }
    }

    static func event(_ name: String, id: Int?, _ value: some Encodable) -> ByteBuffer {
        ServerSentEvents.event(name, id: id, json: JSONBody.encode(value))
    }

    // MARK: - Input and output

    struct NameBody: Decodable { let name: String }
    struct MoveBody: Decodable { let index: Int }
    struct RevisionBody: Encodable {
        let revision: Int
        let index: Int?
    }
    struct AddedEvent: Encodable {
        let revision: Int
        let index: Int
        let item: GalleryItem
    }
    struct ItemEvent: Encodable {
        let revision: Int
        let itemId: GalleryItemID
        let index: Int?
    }
    struct RenamedEvent: Encodable {
        let revision: Int
        let name: String
    }
    struct DeletedEvent: Encodable {
        let revision: Int
        let deletedAt: String
    }
    struct EmptyBody: Encodable {}

    /// The gallery id in the path; one that is not an id names no gallery.
    static func id(_ context: Context) throws(GalleryError) -> GalleryID {
        let text = context.parameters.get("id") ?? ""
        guard let id = GalleryID(text) else { throw .galleryNotFound(text) }
        return id
    }

    static func itemID(_ context: Context) throws(GalleryError) -> GalleryItemID {
        let text = context.parameters.get("itemId") ?? ""
        guard let id = GalleryItemID(text) else { throw .itemNotFound(text) }
        return id
    }

    /// An index as the document bounds it: 0 up to the largest integer a JSON number holds exactly. (An index
    /// past the end means the end; one past this bound is a mistake, not a wish for the end.)
    static func checked(index: Int) throws(GalleryError) -> Int {
        guard (0...Int.largestExactInJSON).contains(index) else { throw .invalidIndex(index) }
        return index
    }

    /// A yes/no query parameter: `true` or `false`, absent is false; anything else is a 400 rather than a
    /// silent false (`?permanent=yes` must not move a gallery to Recently deleted instead of deleting it).
    static func flag(_ name: String, _ request: Request) throws(InputError) -> Bool {
        switch request.uri.queryParameters.get(name) {
        case nil, "false": false
        case "true": true
        case let value?: throw .invalidFlag(name: name, value: value)
        }
    }

    /// `If-Match: "17"`, `17` or `W/"17"`; `*` (or none) asks for no check. Anything else, an empty value
    /// too, is a 400: exactly what `docs/openapi.yaml`'s pattern for it accepts, no more (no signs, no spaces
    /// inside, at most 18 digits so it always fits an `Int`).
    static func ifMatch(_ request: Request) throws -> Int? {
        switch RevisionField.ifMatch(request.headers[.ifMatch]) {
        case .absent: return nil
        case .revision(let revision): return revision
        case .invalid: throw GalleryError.invalidBody("If-Match must be a gallery revision, like \"17\".")
        }
    }

    static func answer(_ value: some Encodable, status: HTTPResponse.Status = .ok, revision: Int) -> Response {
        tagged(JSONBody.response(value, status: status), revision: revision)
    }

    /// A gallery item, written by `FastJSON` (the same bytes, on every add's path).
    static func answer(_ item: GalleryItem, status: HTTPResponse.Status, revision: Int) -> Response {
        var json = FastJSON(capacity: 4096)
        json.galleryItem(item)
        return tagged(JSONBody.response(json: Data(json.bytes), status: status), revision: revision)
    }

    /// `response` with the gallery's revision as its entity tag.
    private static func tagged(_ response: Response, revision: Int) -> Response {
        var response = response
        response.headers[.eTag] = "\"\(revision)\""
        return response
    }

    static func answer(_ gallery: Gallery, status: HTTPResponse.Status = .ok) -> Response {
        answer(gallery, status: status, revision: gallery.revision)
    }

    static func collect(_ request: Request, limit: Int, what: String) async throws -> Data {
        Data(buffer: try await request.boundedBody(upTo: limit) { GalleryError.tooLarge(what: what, limit: limit) })
    }

    /// `refusingNull`: for bodies whose schema allows no `null` anywhere (`JSONNull`).
    static func json<T: Decodable>(_ type: T.Type, _ request: Request, refusingNull: Bool = false) async throws -> T {
        let data = try await collect(request, limit: maxJSONBytes, what: "The request body")
        if refusingNull, let path = JSONNull.path(in: data, shape: JSONNull.addItemBody) {
            throw GalleryError.invalidBody("\"\(path)\" is null in the request body: leave a field out instead.")
        }
        do {
            // JSONDecoder's result and errors (it falls back to it), faster for an item's many fields.
            return try FastJSONDecoder.decode(T.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw GalleryError.invalidBody("The request body needs \"\(key.stringValue)\".")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw GalleryError.invalidBody("\"\(path)\" has the wrong type in the request body.")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            // A number no integer or double holds (`9223372036854775808`, `1e400`) or a fraction for an integer.
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw GalleryError.invalidBody("\"\(path)\" is out of range for this field in the request body.")
        } catch {
            throw GalleryError.invalidBody("The request body is not the JSON this call takes.")
        }
    }
}
