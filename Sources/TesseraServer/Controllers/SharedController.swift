import Foundation
import HTTPTypes
import Hummingbird
import TesseraAccounts
import TesseraCore
import TesseraGalleries
import TesseraImageProxy

/// The visitor's side of public and drop links (docs/accounts.md, "Public and drop links"): the page
/// `/s/{slug}`, `GET /api/shared/{slug}` (the gallery), `POST …/unlock` (a password), `GET …/credits`,
/// `POST …/items` (drop links) and the stored copies at `/s/{slug}/img/…`. Open to anyone in accounts mode
/// (`AccountMiddleware`); every call resolves its link here and goes on as a `GalleryViewer.link`, so it
/// reaches exactly that gallery. Without accounts there are no links: every slug is `link_not_found`.
struct SharedController<Context: ConnectionRequestContext & PrincipalRequestContext> {
    static var passwordHeader: HTTPField.Name { HTTPField.Name("X-Tessera-Link-Password")! }
    let galleries: GalleryService
    /// With accounts (else `nil`): the clock, link passwords and their back-off.
    let accounts: AccountService?
    let assets: WebAssets
    let images: ImagesController<Context>
    let cookie: LinkCookie
    let trustedProxies: [IPNetwork]
    /// The image size cap, for uploads through drop links.
    let maxUploadBytes: Int

    func addRoutes(to router: Router<Context>) {
        router.get("/s/{slug}") { request, context in try await page(request, context) }
        router.get("/api/shared/{slug}") { request, context in
            let (link, moment) = try await unlocked(request, context)
            let gallery = try await galleries.openShared(link, at: moment)
            return JSONBody.response(SharedJSON(link, gallery))
        }
        router.post("/api/shared/{slug}/unlock") { request, context in
            let body = try await GalleriesController<Context>.json(UnlockBody.self, request)
            let (link, moment) = try await resolve(context)
            guard link.passwordHash != nil else { return Response(status: .noContent) }
            try await check(body.password, for: link, request, context)
            var response = Response(status: .noContent)
            response.setCookie(cookie.setting(link, at: moment))
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.get("/api/shared/{slug}/credits") { request, context in
            let format = try GalleriesController<Context>.creditsFormat(request)
            let (link, _) = try await unlocked(request, context)
            let (gallery, credits) = try await galleries.sharedCredits(link)
            let body: String
            switch format {
            case .json:
                return JSONBody.response(GalleriesController<Context>.CreditsBody(gallery: gallery, credits: credits))
            case .text: body = credits.text
            case .html: body = credits.html
            case .markdown: body = credits.markdown
            }
            return Response(
                status: .ok, headers: [.contentType: format.contentType, .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
        router.post("/api/shared/{slug}/items") { request, context in try await drop(request, context) }
        let imagePath = "/s/{slug}/img/{variant}/{signature}/{source}"
        router.get(RouterPath(imagePath)) { request, context in try await image(request, context, includeBody: true) }
        router.head(RouterPath(imagePath)) { request, context in
            try await image(request, context, includeBody: false)
        }
    }

    // MARK: - Resolving a link

    /// The link the path's slug names, live at this moment; `link_not_found` without accounts.
    private func resolve(_ context: Context) async throws -> (GalleryLink, Date) {
        guard let accounts else { throw GalleryError.link(.notFound) }
        let moment = accounts.now()
        return (try await galleries.link(slug: context.parameters.get("slug") ?? "", at: moment), moment)
    }

    /// `resolve`, then the password: the unlock cookie, or the password in `X-Tessera-Link-Password`.
    func unlocked(_ request: Request, _ context: Context) async throws -> (GalleryLink, Date) {
        let (link, moment) = try await resolve(context)
        guard link.passwordHash != nil, !LinkCookie.unlocks(request, link, at: moment) else { return (link, moment) }
        guard let password = request.headers[Self.passwordHeader] else {
            throw GalleryError.link(.passwordRequired)
        }
        try await check(password, for: link, request, context)
        return (link, moment)
    }

    /// The link's password, with the sign-in back-off per link and per client address.
    private func check(_ password: String, for link: GalleryLink, _ request: Request, _ context: Context)
        async throws
    {
        guard let accounts, let hash = link.passwordHash else { return }
        let client = ClientAddress.text(of: request, peer: context.remoteAddress, trusted: trustedProxies)
        guard
            try await accounts.verifyLinkPassword(password, hash: hash, linkID: link.id.rawValue, client: client)
        else { throw GalleryError.link(.passwordWrong) }
    }

    // MARK: - The page and the images

    /// The public page's shell: 200 for a live link (a password is asked for by the page), the same shell
    /// with 404 or 410 for a link that is not there or has expired, so the page can say which.
    private func page(_ request: Request, _ context: Context) async throws -> Response {
        var status = HTTPResponse.Status.ok
        do {
            _ = try await resolve(context)
        } catch GalleryError.link(.notFound) {
            status = .notFound
        } catch GalleryError.link(.expired) {
            status = .gone
        }
        var response = try assets.response(for: WebAssets.publicPage, caching: .revalidate, request)
        if status != .ok, response.status == .ok {
            response.status = status
            response.headers[.cacheControl] = "no-store"
            response.headers[.eTag] = nil
        }
        // The slug is the link's secret: never sent on to the pages and images it leads to.
        return response
    }

    /// A stored copy of the link's gallery; anything else (another gallery's copy, a search result's image)
    /// is `404 image_not_found`, the answer for a copy that does not exist.
    private func image(_ request: Request, _ context: Context, includeBody: Bool) async throws -> Response {
        let (link, _) = try await unlocked(request, context)
        let path = ImagesController<Context>.signedPath(context)
        let image = try images.proxy.verified(path)
        let reference = image.reference
        guard case .stored(let hash) = reference,
            try await galleries.mayView(storedImage: hash, by: .link(LinkGrant(link)))
        else {
            throw ImageProxyError.file(.noStoredCopy(reference.string))
        }
        return try await images.serve(request, image, signedAs: path, privately: true, includeBody: includeBody)
    }
}
