import Foundation
import HTTPTypes
import Hummingbird
import TesseraAccounts
import TesseraGalleries

/// The owner's side of public and drop links (docs/accounts.md, "Public and drop links"):
/// `GET/POST /api/galleries/{id}/links` and `DELETE /api/links/{linkId}`. Only with `TESSERA_AUTH=accounts`
/// (a link is shared with people without an account, which only makes sense where there are accounts); in
/// the other modes `404 accounts_off`, as the members' routes answer.
struct LinksController<Context: ConnectionRequestContext & PrincipalRequestContext> {
    let galleries: GalleryService
    /// With accounts (else `nil`): link passwords are hashed with the accounts' bcrypt.
    let accounts: AccountService?

    func addRoutes(to router: Router<Context>) {
        router.get("/api/galleries/{id}/links") { _, context in
            guard accounts != nil else { throw AccountError.accountsOff }
            let id = try GalleriesController<Context>.id(context)
            let links = try await galleries.links(of: id, by: context.galleryViewer)
            let restricted = try await galleries.restrictedCount(of: id, by: context.galleryViewer)
            return JSONBody.response(LinkList(links: links.map { LinkJSON($0, restrictedCount: restricted) }))
        }
        router.post("/api/galleries/{id}/links") { request, context in
            guard let accounts else { throw AccountError.accountsOff }
            let id = try GalleriesController<Context>.id(context)
            // What is wrong with the request is said first (400), before who may ask (404/403).
            let body = try await GalleriesController<Context>.json(LinkRequest.self, request)
            let moment = accounts.now()
            let checked = try body.checked(at: moment)
            // Only the owner may make one: asked before the password's deliberately slow hash.
            _ = try await galleries.links(of: id, by: context.galleryViewer)
            var hash: String?
            if let password = checked.password { hash = try await accounts.hashLinkPassword(password) }
            let link = try await galleries.createLink(
                GalleryService.NewLink(
                    kind: checked.kind, passwordHash: hash, expiresAt: checked.expiresAt,
                    showItems: checked.showItems, perHour: checked.perHour),
                in: id, at: moment, by: context.galleryViewer)
            let restricted = try await galleries.restrictedCount(of: id, by: context.galleryViewer)
            return JSONBody.response(LinkJSON(link, restrictedCount: restricted), status: .created)
        }
        router.delete("/api/links/{linkId}") { _, context in
            guard accounts != nil else { throw AccountError.accountsOff }
            guard let linkID = LinkID(context.parameters.get("linkId") ?? "") else {
                throw GalleryError.link(.notFound)
            }
            try await galleries.revokeLink(linkID, by: context.galleryViewer)
            return Response(status: .noContent)
        }
    }

    // MARK: - Input and output

    /// `{"kind", "password"?, "expiresAt"?, "showItems"?, "perHour"?}` as the document describes it.
    struct LinkRequest: Decodable {
        let kind: String
        let password: String?
        let expiresAt: String?
        let showItems: Bool?
        let perHour: Int?

        private enum CodingKeys: String, CodingKey { case kind, password, expiresAt, showItems, perHour }

        /// `"expiresAt": null` is no expiry, as when left out (the document says so); the other optional
        /// fields are left out or have a value: a `null` is the wrong type (400), not a default.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func strict<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T? {
                container.contains(key) ? try container.decode(type, forKey: key) : nil
            }
            kind = try container.decode(String.self, forKey: .kind)
            password = try strict(String.self, .password)
            expiresAt = try container.decodeIfPresent(String.self, forKey: .expiresAt)
            showItems = try strict(Bool.self, .showItems)
            perHour = try strict(Int.self, .perHour)
        }

        struct Checked {
            let kind: LinkKind
            let password: String?
            let expiresAt: Date?
            let showItems: Bool
            let perHour: Int
        }

        /// The request as a link, or `invalid` saying what is wrong. `showItems` and `perHour` are for drop
        /// links; a view link ignores them.
        func checked(at moment: Date) throws(GalleryError) -> Checked {
            guard let kind = LinkKind(rawValue: kind) else {
                throw .link(.invalid("\"kind\" is \"view\" or \"drop\"."))
            }
            if let password {
                // Counted as the document's minLength counts (code points); the byte cap is bcrypt's.
                guard password.unicodeScalars.count >= AccountSettings.minimumPasswordLength,
                    password.utf8.count <= AccountSettings.maximumPasswordBytes
                else {
                    throw .link(
                        .invalid(
                            "A link password is at least \(AccountSettings.minimumPasswordLength) characters and at most \(AccountSettings.maximumPasswordBytes) bytes."
                        ))
                }
            }
            var expiry: Date?
            if let expiresAt {
                guard let date = RFC3339.date(expiresAt) else {
                    throw .link(.invalid("\"expiresAt\" is a date and time like 2026-12-24T18:00:00Z."))
                }
                guard date > moment else { throw .link(.invalid("\"expiresAt\" must be in the future.")) }
                expiry = date
            }
            let perHour = perHour ?? GalleryLink.defaultPerHour
            guard GalleryLink.perHourRange.contains(perHour) else {
                throw .link(
                    .invalid(
                        "\"perHour\" is \(GalleryLink.perHourRange.lowerBound) to \(GalleryLink.perHourRange.upperBound)."
                    ))
            }
            return Checked(
                kind: kind, password: password, expiresAt: expiry, showItems: showItems ?? false, perHour: perHour)
        }
    }

    struct LinkList: Encodable {
        let links: [LinkJSON]
    }

    /// A link as its owner sees it: never the password or its hash. `url` is the path; the web app puts its
    /// own origin in front. `restrictedCount` is how many of the gallery's items visitors see as cards, not
    /// pictures (all rights reserved or an unknown licence).
    struct LinkJSON: Encodable {
        let id: String
        let kind: String
        let url: String
        let hasPassword: Bool
        let expiresAt: String?
        let createdAt: String
        let opens: Int
        let lastOpenedAt: String?
        let showItems: Bool?
        let perHour: Int?
        let drops: Int?
        let restrictedCount: Int

        init(_ link: GalleryLink, restrictedCount: Int) {
            self.restrictedCount = restrictedCount
            id = link.id.rawValue
            kind = link.kind.rawValue
            url = "/s/" + link.slug
            hasPassword = link.passwordHash != nil
            expiresAt = link.expiresAt.map(RFC3339.text)
            createdAt = RFC3339.text(link.createdAt)
            opens = link.opens
            lastOpenedAt = link.lastOpenedAt.map(RFC3339.text)
            let drop = link.kind == .drop
            showItems = drop ? link.showItems : nil
            perHour = drop ? link.perHour : nil
            drops = drop ? link.drops : nil
        }

        private enum CodingKeys: String, CodingKey {
            case id, kind, url, hasPassword, expiresAt, createdAt, opens, lastOpenedAt, showItems, perHour, drops,
                restrictedCount
        }

        /// `expiresAt` and `lastOpenedAt` are `null` when absent; the drop fields only for drop links.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encode(url, forKey: .url)
            try container.encode(hasPassword, forKey: .hasPassword)
            try container.encode(expiresAt, forKey: .expiresAt)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(opens, forKey: .opens)
            try container.encode(lastOpenedAt, forKey: .lastOpenedAt)
            try container.encodeIfPresent(showItems, forKey: .showItems)
            try container.encodeIfPresent(perHour, forKey: .perHour)
            try container.encodeIfPresent(drops, forKey: .drops)
            try container.encode(restrictedCount, forKey: .restrictedCount)
        }
    }
}

/// RFC 3339 times as links read and write them: written in UTC to the second, read with or without fractions
/// of a second and with any offset.
enum RFC3339 {
    static func text(_ date: Date) -> String { date.formatted(.iso8601) }

    static func date(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let date = plain.date(from: text.uppercased()) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text.uppercased())
    }
}
