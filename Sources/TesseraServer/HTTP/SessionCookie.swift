import Foundation
import Hummingbird
import TesseraAccounts

/// The session cookie: `HttpOnly` (no script reads it), `SameSite=Lax`, `Secure` when `TESSERA_PUBLIC_URL`
/// is https, and kept by the browser for the session's absolute lifetime.
struct SessionCookie: Sendable {
    static let name = "tessera_session"
    let secure: Bool
    let maxAge: Int

    init(configuration: AppConfiguration) {
        secure = configuration.publicURL?.scheme?.lowercased() == "https"
        maxAge = Int(configuration.accounts.sessionLifetime.seconds.rounded(.up))
    }

    func setting(_ secret: String) -> Cookie {
        Cookie(
            name: Self.name, value: secret, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// Tells the browser to drop the cookie.
    var clearing: Cookie {
        Cookie(name: Self.name, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// The session secret in a request's cookies, if any.
    static func secret(in request: Request) -> String? {
        RequestCookies.values(named: name, in: request).first { !$0.isEmpty }.map(String.init)
    }
}
