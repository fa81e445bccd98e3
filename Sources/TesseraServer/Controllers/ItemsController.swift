import Foundation
import Hummingbird
import TesseraCore

/// `/api/items/{source}/{id}`: one item, from recent results or from its source.
struct ItemsController<Context: RequestContext> {
    let search: SearchService
    let linker: any ImageLinking

    func addRoutes(to router: Router<Context>) {
        router.get("/api/items/{source}/{id}") { request, context in
            let rawSource = context.parameters.get("source") ?? ""
            // Gallery imports (`web`, `upload`) are sources of items but not services to ask.
            guard let source = SourceID(rawValue: rawSource), SourceID.searchable.contains(source) else {
                throw InputError.unknownSource(rawSource)
            }
            // Path parameters arrive still percent-encoded; ids may hold spaces or colons (Wikimedia titles).
            let rawID = context.parameters.get("id") ?? ""
            let id = try InputError.checkedItemID(rawID.removingPercentEncoding ?? rawID)
            let item = try await search.item(ItemID(source: source, nativeID: id))
            return JSONBody.response(item.linkingImages(with: linker))
        }
    }
}
