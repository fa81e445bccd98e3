import HTTPTypes
import Hummingbird

/// When `TESSERA_TOKEN` is set, every request but `/api/health` needs it, as `Authorization: Bearer <token>`
/// or the `tessera_token` cookie (set by visiting `/login?token=<token>` once).
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        if path == "/api/health" { return try await next(request, context) }
        if path == "/login" {
            guard request.uri.queryParameters.get("token").map(matches) == true else { throw unauthorized }
            var response = Response(status: .seeOther, headers: [.location: "/"])
            response.setCookie(
                Cookie(name: "tessera_token", value: token, path: "/", secure: false, httpOnly: true, sameSite: .strict)
            )
            return response
        }
        let bearer = request.headers[.authorization].flatMap { value -> String? in
            value.hasPrefix("Bearer ") ? String(value.dropFirst(7)) : nil
        }
        let cookie = request.cookies["tessera_token"]?.value
        guard bearer.map(matches) == true || cookie.map(matches) == true else { throw unauthorized }
        return try await next(request, context)
    }

    private var unauthorized: APIError {
        var error = APIError(
            status: .unauthorized, code: "unauthorized",
            message:
                "This Tessera needs its token: send Authorization: Bearer <TESSERA_TOKEN> or visit /login?token=<TESSERA_TOKEN>."
        )
        error.headers[.wwwAuthenticate] = "Bearer"
        return error
    }

    /// Compares in constant time, so response timing does not reveal the token.
    private func matches(_ candidate: String) -> Bool {
        let a = Array(candidate.utf8)
        let b = Array(token.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
