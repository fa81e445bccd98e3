import HTTPTypes
import TesseraGalleries

extension APIError {
    /// A link's refusal (docs/accounts.md, "Public and drop links"): 404 for no such link (revoked, unknown, its
    /// gallery deleted, or not the asker's), 410 once expired, 401 for a missing or wrong password (with how to
    /// send one), 403 for what the link does not allow, 429 over a drop link's hourly rate.
    init(_ error: LinkError) {
        switch error {
        case .notFound:
            self.init(status: .notFound, code: "link_not_found", message: error.description)
        case .expired:
            self.init(status: .gone, code: "link_expired", message: error.description)
        case .passwordRequired:
            self.init(status: .unauthorized, code: "link_password_required", message: error.description)
        case .passwordWrong:
            self.init(status: .unauthorized, code: "link_password_wrong", message: error.description)
        case .readOnly:
            self.init(status: .forbidden, code: "link_read_only", message: error.description)
        case .itemsHidden:
            self.init(status: .forbidden, code: "link_items_hidden", message: error.description)
        case .rateLimited(let seconds):
            self.init(status: .tooManyRequests, code: "rate_limited", message: error.description)
            headers[.retryAfter] = String(seconds)
        case .invalid:
            self.init(status: .badRequest, code: "invalid_link", message: error.description)
        }
        // Every 401 says how to authenticate (RFC 9110 §11.6.1): here, the link's password.
        if status == .unauthorized { headers[.wwwAuthenticate] = "X-Tessera-Link-Password" }
    }
}
