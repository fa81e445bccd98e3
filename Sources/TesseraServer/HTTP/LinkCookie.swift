import Crypto
import Foundation
import Hummingbird
import TesseraGalleries

/// The cookie `POST /api/shared/{slug}/unlock` sets once a link's password was right (docs/accounts.md,
/// "Public and drop links"): named for the link (`tessera_link_<id>`, so several links unlock side by side),
/// `HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` when the public address is https, for an hour.
///
/// Its value is `<expiry>.<HMAC-SHA256>` over the link's id and the expiry, keyed with the link's bcrypt hash:
/// every server sharing the database can check it without a key of its own, it names exactly one link, and
/// it is worthless once the link is revoked (a new link has a new id and hash).
struct LinkCookie: Sendable {
    static let lifetime: TimeInterval = 3600
    let secure: Bool

    init(configuration: AppConfiguration) {
        secure = configuration.publicURL?.scheme?.lowercased() == "https"
    }

    static func name(_ link: GalleryLink) -> String { "tessera_link_" + link.id.rawValue }

    /// The cookie unlocking `link` from `moment` on, for `lifetime`.
    func setting(_ link: GalleryLink, at moment: Date) -> Cookie {
        let expiry = Int(moment.timeIntervalSince1970 + Self.lifetime)
        return Cookie(
            name: Self.name(link), value: "\(expiry).\(Self.signature(link, expiry: expiry))",
            maxAge: Int(Self.lifetime), path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// Whether the request carries a cookie unlocking `link` that has not run out at `moment`.
    static func unlocks(_ request: Request, _ link: GalleryLink, at moment: Date) -> Bool {
        guard link.passwordHash != nil else { return true }
        return RequestCookies.values(named: name(link), in: request).contains { value in
            let parts = value.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, let expiry = Int(parts[0]), Double(expiry) > moment.timeIntervalSince1970
            else { return false }
            return RequestCookies.constantTimeEqual(parts[1], signature(link, expiry: expiry))
        }
    }

    static func signature(_ link: GalleryLink, expiry: Int) -> String {
        let key = SymmetricKey(data: Data((link.passwordHash ?? "").utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data("tessera-link:\(link.id):\(expiry)".utf8), using: key)
        return mac.map { String(format: "%02x", $0) }.joined()
    }
}
