import HTTPTypes
import Hummingbird

/// When `TESSERA_TOKEN` is set, every request but `/api/health` (and `/metrics` from this machine, see
/// `MetricsAccess`) needs it, as `Authorization: Bearer <token>` or the `tessera_token` cookie (set by
/// visiting `/login?token=<token>` once).
///
/// A change sent with the cookie rather than the header must pass `CrossSite`: a browser adds the cookie to
/// another site's form posts too.
struct TokenMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let token: AccessToken
    let crossSite: CrossSite

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        if path == "/api/health" { return try await next(request, context) }
        if path == MetricsController<Context>.path,
            MetricsAccess.isLocal(peer: context.remoteAddress, headers: request.headers)
        {
            return try await next(request, context)
        }
        // `/login` takes the token itself, so it is answered before the token is asked for; a method it does not
        // serve goes on to the router, whose answer is 405 (it has no route there that needs the token).
        if path == "/login" {
            guard request.method == .get || request.method == .head else { return try await next(request, context) }
            let cookies = request.headers[values: .cookie].joined(separator: "; ")
            if request.uri.queryParameters.get("token") == nil,
                token.admits(authorization: request.headers[.authorization], cookieHeader: cookies)
            {
                return Response(status: .seeOther, headers: [.location: "/"])
            }
            guard request.uri.queryParameters.get("token").map(token.matches) == true else {
                throw APIError(AccessError.serverTokenRequired)
            }
            var response = Response(status: .seeOther, headers: [.location: "/"])
            response.setCookie(
                Cookie(
                    name: AccessToken.cookieName, value: token.token, path: "/", secure: false, httpOnly: true,
                    sameSite: .strict)
            )
            return response
        }
        if token.admits(authorization: request.headers[.authorization], cookieHeader: nil) {
            return try await next(request, context)
        }
        let cookies = request.headers[values: .cookie].joined(separator: "; ")
        guard token.admits(authorization: nil, cookieHeader: cookies) else {
            throw APIError(AccessError.serverTokenRequired)
        }
        if CrossSite.isStateChanging(request.method) && !crossSite.isFromApp(request) {
            throw APIError(AccessError.crossSite)
        }
        return try await next(request, context)
    }
}
