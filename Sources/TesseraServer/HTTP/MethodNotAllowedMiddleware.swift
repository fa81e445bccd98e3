import HTTPTypes
import Hummingbird

/// Answers `405` with `Allow` when a request names a path the router serves, but with a method it does not
/// (RFC 9110 §15.5.6), where Hummingbird's router alone says `404` for any unmatched (path, method) pair.
///
/// Added to the router after every route, so it wraps only the router's not-found answer: a matched route
/// never pays for it. The routes are read once, when the router is built.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each served path as its segments (`nil` for a parameter) and the methods it answers.
    private let routes: [(segments: [Substring?], methods: Set<HTTPRequest.Method>)]

    /// - Parameter routes: every route of the router, as `Router.routes` lists them.
    init(routes: [(path: String, method: HTTPRequest.Method)]) {
        var methods: [[Substring?]: Set<HTTPRequest.Method>] = [:]
        for route in routes {
            methods[Self.segments(route.path), default: []].insert(route.method)
        }
        self.routes = methods.map { ($0.key, $0.value) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = allowedMethods(for: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            var answer = APIError(
                status: .methodNotAllowed, code: "method_not_allowed",
                message:
                    "\(request.method.rawValue.prefix(20)) is not allowed on \(request.uri.path.prefix(200)); use "
                    + allowed.map(\.rawValue).sorted().joined(separator: ", ") + ".")
            answer.headers[.allow] = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            throw answer
        }
    }

    /// Every method of every route whose path matches, as the router matches it: same number of segments,
    /// literal segments equal, parameters matching anything but an empty segment.
    func allowedMethods(for path: String) -> Set<HTTPRequest.Method> {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var allowed = Set<HTTPRequest.Method>()
        for route in routes where route.segments.count == parts.count {
            let matches = zip(route.segments, parts).allSatisfy { segment, part in
                segment.map { $0 == part } ?? !part.isEmpty
            }
            if matches { allowed.formUnion(route.methods) }
        }
        return allowed
    }

    /// `/api/items/{source}/{id}` → `["api", "items", nil, nil]`; `/` → `[""]`, as a request for `/` splits.
    private static func segments(_ path: String) -> [Substring?] {
        let trimmed = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("{") || part.hasPrefix(":") ? nil : part
        }
    }
}
