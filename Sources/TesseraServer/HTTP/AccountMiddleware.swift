import Foundation
import HTTPTypes
import Hummingbird
import TesseraAccounts

/// A request context that carries who sent it (`TESSERA_AUTH=accounts`).
public protocol PrincipalRequestContext: RemoteAddressRequestContext {
    var principal: Principal? { get set }
}

/// `TESSERA_AUTH=accounts`: every request but the open ones needs a session cookie or a personal access
/// token (`Authorization: Bearer tsr_…`). Open: `/api/health`, `/metrics` from this machine, the sign-in page
/// and `POST /api/session`, the app's files under `/app/`, and public and drop links (`/s/…`, `/api/shared/…`). A page asked for without a session is sent to
/// `/login`; anything else is `401`. Cookie-borne changes must pass `CrossSite`; `read` tokens change nothing.
struct AccountMiddleware<Context: PrincipalRequestContext>: RouterMiddleware {
    let accounts: AccountService
    let crossSite: CrossSite
    let trustedProxies: [IPNetwork]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        let changing = CrossSite.isStateChanging(request.method)
        if path == "/api/health" || path == "/login" || path.hasPrefix("/app/") {
            return try await next(request, context)
        }
        if path.hasPrefix("/s/") || path.hasPrefix("/api/shared/") {
            // Public and drop links: no account, the link is the credential (`SharedController`). A change
            // (unlocking, dropping an image) must still come from the app's own page, not another site's form.
            if changing && !crossSite.isFromApp(request) { throw APIError(AccessError.crossSite) }
            return try await next(request, context)
        }
        if path == MetricsController<Context>.path,
            MetricsAccess.isLocal(peer: context.remoteAddress, headers: request.headers)
        {
            return try await next(request, context)
        }
        if path == AccountsController<Context>.sessionPath, request.method == .post {
            // Signing in from another site's form would sign the browser in as someone else.
            guard crossSite.isFromApp(request) else { throw APIError(AccessError.crossSite) }
            return try await next(request, context)
        }
        var context = context
        if let authorization = request.headers[.authorization] {
            guard authorization.hasPrefix("Bearer "),
                let principal = try await accounts.principal(bearer: String(authorization.dropFirst(7)))
            else { throw APIError(AccessError.invalidToken) }
            if changing && !principal.mayWrite { throw APIError(AccessError.readOnlyToken) }
            context.principal = principal
        } else if let secret = SessionCookie.secret(in: request),
            let principal = try await accounts.session(secret: secret)
        {
            if changing && !crossSite.isFromApp(request) { throw APIError(AccessError.crossSite) }
            context.principal = principal
        } else {
            if (request.method == .get || request.method == .head) && Self.isPage(path) {
                return Response(status: .seeOther, headers: [.location: Self.signInAddress(for: request)])
            }
            throw APIError(AccessError.signInRequired)
        }
        return try await next(request, context)
    }

    /// A page of the web app rather than the API or an image.
    static func isPage(_ path: String) -> Bool {
        !path.hasPrefix("/api/") && !path.hasPrefix("/img/") && !path.hasPrefix("/media/") && path != "/metrics"
    }

    /// `/login?next=<the page>`, so signing in comes back to it.
    static func signInAddress(for request: Request) -> String {
        let target = request.uri.string
        guard target != "/" else { return "/login" }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return "/login?next=" + (target.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }
}
