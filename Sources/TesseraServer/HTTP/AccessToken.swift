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
        let prefix = Self.cookieName + "="
        return cookieHeader.split(separator: ";").contains { pair in
            let pair = pair.trimmingPrefix(" ")
            return pair.hasPrefix(prefix) && matches(String(pair.dropFirst(prefix.count)))
        }
    }

    /// Compares in constant time, so response timing does not reveal the token.
    func matches(_ candidate: String) -> Bool {
        let a = Array(candidate.utf8)
        let b = Array(token.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
