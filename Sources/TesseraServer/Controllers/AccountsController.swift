import Foundation
import HTTPTypes
import Hummingbird
import TesseraAccounts
import TesseraCore

/// Signing in and out, who is signed in, and personal access tokens (docs/accounts.md). Registered in every
/// mode so the API is the same everywhere; without `TESSERA_AUTH=accounts` all but `GET /api/me` answer
/// 404 `accounts_off`.
struct AccountsController<Context: PrincipalRequestContext> {
    static var sessionPath: String { "/api/session" }
    let accounts: AccountService
    let mode: AuthMode
    let cookie: SessionCookie
    let trustedProxies: [IPNetwork]

    struct SignIn: Decodable {
        let name: String
        let password: String
    }

    struct NewToken: Decodable {
        let name: String
        let scope: TokenScope
    }

    struct AccountJSON: Encodable {
        let name: String
        let admin: Bool
    }

    struct Me: Encodable {
        let auth: String
        let account: AccountJSON?
        /// `session` or `token`, when signed in.
        let via: String?
    }

    struct TokenJSON: Encodable {
        let id: String
        let name: String
        let scope: String
        let createdAt: String
        let lastUsedAt: String?
        /// Only in the answer that made it.
        let secret: String?
    }

    struct TokenList: Encodable {
        let tokens: [TokenJSON]
    }

    func addRoutes(to router: Router<Context>) {
        router.post(RouterPath(Self.sessionPath)) { request, context in try await signIn(request, context) }
        router.delete(RouterPath(Self.sessionPath)) { _, context in
            let principal = try signedIn(context)
            try await accounts.signOut(principal)
            return signedOut()
        }
        router.delete("/api/sessions") { _, context in
            let principal = try signedIn(context)
            try await accounts.signOutEverywhere(principal.account)
            return signedOut()
        }
        router.get("/api/me") { _, context in
            let principal = context.principal
            let via: String? =
                switch principal?.credential {
                case .session: "session"
                case .token: "token"
                case nil: nil
                }
            return JSONBody.response(
                Me(auth: mode.rawValue, account: principal.map { Self.json($0.account) }, via: via))
        }
        router.get("/api/tokens") { _, context in
            let principal = try signedIn(context)
            let tokens = try await accounts.tokens(of: principal.account)
            return JSONBody.response(TokenList(tokens: tokens.map { Self.json($0, secret: nil) }))
        }
        router.post("/api/tokens") { request, context in
            let principal = try signedIn(context)
            guard case .session = principal.credential else { throw AccountError.sessionRequired }
            let body = try await Self.json(NewToken.self, request)
            let (token, secret) = try await accounts.createToken(
                for: principal.account, name: body.name, scope: body.scope)
            return JSONBody.response(Self.json(token, secret: secret), status: .created)
        }
        router.delete("/api/tokens/{id}") { _, context in
            let principal = try signedIn(context)
            guard case .session = principal.credential else { throw AccountError.sessionRequired }
            try await accounts.revokeToken(id: context.parameters.get("id") ?? "", of: principal.account)
            return Response(status: .noContent)
        }
    }

    private func signIn(_ request: Request, _ context: Context) async throws -> Response {
        guard mode == .accounts else { throw AccountError.accountsOff }
        let body = try await Self.json(SignIn.self, request)
        let client = ClientAddress.text(of: request, peer: context.remoteAddress, trusted: trustedProxies)
        let (account, secret) = try await accounts.signIn(name: body.name, password: body.password, client: client)
        var response = JSONBody.response(
            Me(auth: mode.rawValue, account: Self.json(account), via: "session"))
        response.setCookie(cookie.setting(secret))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The principal of an accounts-mode request (the middleware let it in), or `accounts_off`.
    private func signedIn(_ context: Context) throws -> Principal {
        guard mode == .accounts, let principal = context.principal else { throw AccountError.accountsOff }
        return principal
    }

    private func signedOut() -> Response {
        var response = Response(status: .noContent)
        response.setCookie(cookie.clearing)
        return response
    }

    static func json(_ account: Account) -> AccountJSON {
        AccountJSON(name: account.name.value, admin: account.isAdmin)
    }

    static func json(_ token: AccessTokenInfo, secret: String?) -> TokenJSON {
        let format = ISO8601DateFormatter()
        return TokenJSON(
            id: token.id, name: token.name, scope: token.scope.rawValue,
            createdAt: format.string(from: token.createdAt),
            lastUsedAt: token.lastUsedAt.map(format.string(from:)), secret: secret)
    }

    /// A small JSON body, its faults as `invalid_request`.
    static func json<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        let data = Data(
            buffer: try await request.boundedBody(upTo: 16 * 1024) {
                AccountError.invalidBody("The request body is larger than 16 KiB.")
            })
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw AccountError.invalidBody("The request body needs \"\(key.stringValue)\".")
        } catch {
            throw AccountError.invalidBody("The request body is not the JSON this call takes.")
        }
    }
}
