import HTTPTypes

/// Why a request was refused before it reached a route: who may ask, and from where. Thrown by the access
/// middlewares (`TokenMiddleware`, `AccountMiddleware`, `CrossSite`), mapped to HTTP here and only here.
enum AccessError: Error, Hashable {
    /// `TESSERA_AUTH=token` and the request carries no valid token.
    case serverTokenRequired
    /// `TESSERA_AUTH=accounts`, no session cookie and no bearer token.
    case signInRequired
    /// A bearer token that is not (or no longer) a personal access token of this server.
    case invalidToken
    /// A read-only personal access token asked to change something.
    case readOnlyToken
    /// A change with the cookie that did not come from Tessera's own pages.
    case crossSite
}

extension APIError {
    init(_ error: AccessError) {
        switch error {
        case .serverTokenRequired:
            self.init(
                status: .unauthorized, code: "unauthorized",
                message:
                    "This Tessera needs its token: send Authorization: Bearer <TESSERA_TOKEN> or visit /login?token=<TESSERA_TOKEN>."
            )
        case .signInRequired:
            self.init(
                status: .unauthorized, code: "sign_in_required",
                message:
                    "Sign in first: POST /api/session, the page /login, or a personal access token as Authorization: Bearer."
            )
        case .invalidToken:
            self.init(
                status: .unauthorized, code: "invalid_token",
                message:
                    "This token is not valid (revoked, mistyped, or not a personal access token of this Tessera).")
        case .readOnlyToken:
            self.init(
                status: .forbidden, code: "read_only_token",
                message: "This token may only read; make a read-write token to change things.")
        case .crossSite:
            self.init(
                status: .forbidden, code: "cross_site",
                message:
                    "This change did not come from Tessera's own pages (Sec-Fetch-Site, Origin or X-Tessera-Client), so nothing was changed; programs should send a token as Authorization: Bearer."
            )
        }
        // Every 401 says how to authenticate (RFC 9110 §11.6.1).
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
    }
}
