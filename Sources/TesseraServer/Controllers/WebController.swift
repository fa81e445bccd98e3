import HTTPTypes
import Hummingbird

/// The web app: the app shell (`index.html`) for every page address the app routes itself (`/`, `/search`,
/// `/item/{source}/{id}`, `/galleries`, `/galleries/{id}`), so reloading or sharing any of them works, and its
/// files under `/app/`.
///
/// The shell names the files under `/app/{version}/…`, where `version` is a hash of all of them
/// (`WebAssets.version`), so they are cached for good and a changed file comes under a new address. The shell
/// itself is revalidated on every load. `/app/{file}` without the version answers too, revalidated, for a page
/// or a link that names no version (docs/web.md, "Delivery").
///
/// `/login` is the sign-in page with `TESSERA_AUTH=accounts`; in the other modes there is nobody to sign in as
/// and it sends the browser home (with a token, `TokenMiddleware` answers `/login?token=` before the router).
struct WebController<Context: RequestContext> {
    let assets: WebAssets
    let auth: AuthMode

    func addRoutes(to router: Router<Context>) {
        router.get("/login") { request, _ in
            guard auth == .accounts else { return Response(status: .seeOther, headers: [.location: "/"]) }
            return try assets.response(for: WebAssets.login, caching: .revalidate, request)
        }
        for path in ["/", "/search", "/item/{source}/{id}", "/galleries", "/galleries/{id}"] {
            router.get(RouterPath(path)) { request, _ in
                try assets.response(for: WebAssets.shell, caching: .revalidate, request)
            }
        }
        // A version and a path under it, or a path alone (unversioned). One folder deep is enough for the app's
        // folders by screen, and OpenAPI has no parameter that spans folders. The router wants
        // the same name at the same place in every route, so the segments are named by position.
        let segments = ["first", "second", "third"]
        for count in 1...segments.count {
            let path = "/app/" + segments.prefix(count).map { "{\($0)}" }.joined(separator: "/")
            router.get(RouterPath(path)) { request, context in
                let parts = segments.prefix(count).compactMap { context.parameters.get($0) }
                if parts.count > 1, parts[0] == assets.version {
                    return try assets.response(
                        for: parts.dropFirst().joined(separator: "/"), caching: .forever, request)
                }
                return try assets.response(for: parts.joined(separator: "/"), caching: .revalidate, request)
            }
        }
    }
}
