import Foundation
import HTTPTypes
import Hummingbird

/// The cross-site check for requests a browser sends with a cookie (docs/accounts.md, "Cross-site requests"):
/// a state-changing request (POST, PUT, PATCH, DELETE) is let through only when it comes from the app itself.
///
/// In order: `Sec-Fetch-Site` when the browser sends it (a page cannot set it): only `same-origin` passes.
/// Else `Origin` must be this server's own (the `Host` it was asked under, or `TESSERA_PUBLIC_URL`'s). Else
/// the header `X-Tessera-Client`, which no other site can add without a CORS preflight, and this server
/// grants none. A request with none of these is refused: SameSite=Lax alone leaves top-level POSTs from
/// sibling subdomains and old browsers.
struct CrossSite: Sendable {
    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let clientHeader = HTTPField.Name("X-Tessera-Client")!
    let publicOrigin: String?

    init(publicURL: URL?) {
        publicOrigin = publicURL.flatMap(Self.origin)
    }

    static func isStateChanging(_ method: HTTPRequest.Method) -> Bool {
        [.post, .put, .patch, .delete].contains(method)
    }

    /// Whether `request` comes from a page of this server.
    func isFromApp(_ request: Request) -> Bool {
        if let site = request.headers[Self.fetchSite] { return site.lowercased() == "same-origin" }
        if let origin = request.headers[.origin] {
            let origin = origin.lowercased()
            if origin == publicOrigin { return true }
            guard let host = request.head.authority?.lowercased() else { return false }
            return origin == "http://" + host || origin == "https://" + host
        }
        return request.headers[Self.clientHeader] != nil
    }

    /// `scheme://host[:port]`, lower-case, as browsers write `Origin`.
    static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return url.port.map { "\(scheme)://\(bracketed):\($0)" } ?? "\(scheme)://\(bracketed)"
    }
}
