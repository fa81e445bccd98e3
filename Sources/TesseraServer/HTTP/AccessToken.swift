/// The `TESSERA_TOKEN` check, shared by the router's middleware and the image fast path so both let in
/// exactly the same requests: `Authorization: Bearer <token>` or the `tessera_token` cookie.
struct AccessToken: Sendable {
    static let cookieName = "tessera_token"

    let token: String

    /// Whether the request's `Authorization` or `Cookie` header carries the token.
    func admits(authorization: String?, cookieHeader: String?) -> Bool {
        if let authorization, authorization.hasPrefix("Bearer "), matches(String(authorization.dropFirst(7))) {
            return true
        }
        guard let cookieHeader else { return false }
        return RequestCookies.values(named: Self.cookieName, in: cookieHeader).contains { matches($0) }
    }

    /// Compares in constant time, so response timing does not reveal the token.
    func matches(_ candidate: some StringProtocol) -> Bool {
        RequestCookies.constantTimeEqual(candidate, token)
    }
}
