import Hummingbird

/// Reading a request's cookies: the session's, the server token's and the links' unlock cookies all come
/// through here.
enum RequestCookies {
    /// Every value of the cookie `name` in a `Cookie` header (`a=1; b=2`), in order.
    static func values(named name: String, in header: String) -> [Substring] {
        let prefix = name + "="
        return header.split(separator: ";").compactMap { pair in
            let pair = pair.trimmingPrefix(" ")
            return pair.hasPrefix(prefix) ? pair.dropFirst(prefix.count) : nil
        }
    }

    /// Every value of the cookie `name` in the request's `Cookie` headers.
    static func values(named name: String, in request: Request) -> [Substring] {
        values(named: name, in: request.headers[values: .cookie].joined(separator: "; "))
    }

    /// Whether two secrets are equal, in time that depends only on their length, so response timing does not
    /// reveal how much of a guess was right.
    static func constantTimeEqual(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
