import Foundation
import Hummingbird
import TesseraCore

/// `/api/health` and `/api/sources`.
struct MetaController<Context: RequestContext> {
    let search: SearchService
    let readiness: Readiness

    func addRoutes(to router: Router<Context>) {
        let readiness = readiness
        router.get("/api/health") { request, context in
            // Answered, not thrown: a 503 polled every second by a load balancer is not an error to log
            // each time (`Readiness` logs the change of state once).
            if let problem = await readiness.problem() {
                return try APIError(problem).response(from: request, context: context)
            }
            return JSONBody.response(json: Self.healthy)
        }
        router.get("/api/sources") { _, _ in JSONBody.response(search.descriptors) }
    }

    static var healthy: Data { Data(#"{"status":"ok","dataFolder":"ok","database":"ok"}"#.utf8) }
}
