import Foundation
import Hummingbird
import TesseraCore
import TesseraGalleries

/// `/api/items/galleries?id=…&id=…`: which galleries already hold these items, so the web app can mark
/// results and say "already in Picks" instead of adding a picture twice without a word.
struct HoldingController<Context: PrincipalRequestContext> {
    let galleries: GalleryService

    func addRoutes(to router: Router<Context>) {
        let galleries = galleries
        router.get("/api/items/galleries") { request, context in
            let ids = try Self.itemIDs(request)
            let holding = try await galleries.galleries(holding: ids, by: context.galleryViewer)
            return JSONBody.response(HoldingBody(items: holding))
        }
    }

    /// 1 to `InputError.maxItemIDs` ids, each one the API takes, repeats once.
    static func itemIDs(_ request: Request) throws(InputError) -> [String] {
        let ids = request.uri.queryParameters.getAll("id").map { String($0) }
        guard (1...InputError.maxItemIDs).contains(ids.count) else { throw .itemIDCount(ids.count) }
        for id in ids { _ = try InputError.checkedItemID(id) }
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}

/// `{"items": {"pixabay:1": [{"id": "g_…", "name": "Picks"}]}}`: only the items some gallery holds.
struct HoldingBody: Encodable {
    let items: [String: [GalleryRef]]
}
