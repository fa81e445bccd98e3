import Hummingbird
import TesseraCore

/// `/api/health` and `/api/sources`.
struct MetaController<Context: RequestContext> {
    let search: SearchService

    func addRoutes(to router: Router<Context>) {
        router.get("/api/health") { _, _ in JSONBody.response(["status": "ok"]) }
        router.get("/api/sources") { _, _ in JSONBody.response(search.descriptors) }
    }
}
