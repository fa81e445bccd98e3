import Foundation
import Hummingbird
import TesseraAccounts
import TesseraGalleries

/// `/api/galleries/{id}/members`: who a gallery is shared with (docs/accounts.md). Only with
/// `TESSERA_AUTH=accounts`; in the other modes `404 accounts_off`, as the account routes answer.
extension GalleriesController {
    func addMemberRoutes(to router: Router<Context>) {
        let galleries = galleries
        let accountsOn = accounts != nil
        router.get("/api/galleries/{id}/members") { _, context in
            guard accountsOn else { throw AccountError.accountsOff }
            let id = try Self.id(context)
            return JSONBody.response(
                MembersBody(members: try await galleries.members(of: id, by: context.galleryViewer)))
        }
        router.post("/api/galleries/{id}/members") { request, context in
            guard accountsOn else { throw AccountError.accountsOff }
            let id = try Self.id(context)
            let body = try await Self.json(MemberBody.self, request)
            guard let role = GalleryRole(rawValue: body.role), role != .owner else {
                throw GalleryError.invalidBody("\"role\" is \"viewer\" or \"editor\".")
            }
            let name = try AccountName(body.name)
            let members = try await galleries.setMember(
                named: name.value, role: role, in: id, by: context.galleryViewer)
            return JSONBody.response(MembersBody(members: members))
        }
        router.delete("/api/galleries/{id}/members/{name}") { _, context in
            guard accountsOn else { throw AccountError.accountsOff }
            let id = try Self.id(context)
            let text = context.parameters.get("name") ?? ""
            guard let name = try? AccountName(text) else { throw GalleryError.memberNotFound(text) }
            try await galleries.removeMember(named: name.value, from: id, by: context.galleryViewer)
            return Response(status: .noContent)
        }
    }

    struct MemberBody: Decodable {
        let name: String
        let role: String
    }

    /// `{"members": [{"name", "role"}]}`, by name.
    struct MembersBody: Encodable {
        let members: [GalleryMember]
    }
}

extension PrincipalRequestContext {
    /// Who asks for galleries: the signed-in account, or everyone without accounts. (`AccountMiddleware` lets
    /// no request reach a gallery route without a principal in accounts mode.)
    var galleryViewer: GalleryViewer {
        principal.map { .account($0.account.id.value) } ?? .everyone
    }
}
