import Foundation
import HTTPTypes
import Hummingbird
import TesseraCore
import TesseraGalleries

/// `GET /api/galleries/{id}/credits?format=json|text|html|markdown`: the gallery's credits through
/// `GalleryService` (docs/licences.md, "Credits").
extension GalleriesController {
    /// The forms the document allows, and the content type of each; anything else is refused.
    enum CreditsFormat: String, CaseIterable {
        case json, text, html, markdown

        var contentType: String {
            switch self {
            case .json: "application/json"
            case .text: "text/plain; charset=utf-8"
            case .html: "text/html; charset=utf-8"
            case .markdown: "text/markdown; charset=utf-8"
            }
        }
    }

    func addCreditsRoute(to router: Router<Context>) {
        let galleries = galleries
        router.get("/api/galleries/{id}/credits") { request, context in
            let format = try Self.creditsFormat(request)
            let (gallery, credits) = try await galleries.credits(try Self.id(context), by: context.galleryViewer)
            let body: String
            switch format {
            case .json: return Self.answer(CreditsBody(gallery: gallery, credits: credits), revision: gallery.revision)
            case .text: body = credits.text
            case .html: body = credits.html
            case .markdown: body = credits.markdown
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: format.contentType, .eTag: "\"\(gallery.revision)\"", .cacheControl: "no-store",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
    }

    static func creditsFormat(_ request: Request) throws(InputError) -> CreditsFormat {
        guard let text = request.uri.queryParameters.get("format") else { return .json }
        guard let format = CreditsFormat(rawValue: text) else {
            throw .invalidChoice(name: "format", value: text, accepted: CreditsFormat.allCases.map(\.rawValue))
        }
        return format
    }

    struct CreditsBody: Encodable {
        struct Entry: Encodable {
            let id: String
            let index: Int
            let source: SourceID
            let title: String
            let creator: Creator?
            let pageURL: String?
            let license: License
            /// The licence as the table of names says it (docs/licences.md, "Names").
            let badge, label, licenseName: String
            let restricted: Bool
            let text, html, markdown, xml: String
        }
        struct Warning: Encodable {
            let code: String
            let message: String
            let itemIds: [String]
        }
        let id: GalleryID
        let name: String
        let revision: Int
        let items: [Entry]
        let warnings: [Warning]

        init(gallery: Gallery, credits: Credits) {
            id = gallery.id
            name = gallery.name
            revision = gallery.revision
            // `credits` was made from `gallery.items`, one entry per item in the same order.
            items = zip(gallery.items ?? [], credits.entries).enumerated().map { index, pair in
                let attribution = pair.1.attribution
                // The item's `credit`, as every answer carries it; Markdown and XML are the credits' own.
                let credit = pair.0.item.credit
                return Entry(
                    id: pair.1.id, index: index, source: pair.0.item.source,
                    title: attribution.title, creator: attribution.creator, pageURL: attribution.pageURL,
                    license: attribution.effectiveLicense, badge: credit.badge, label: credit.label,
                    licenseName: credit.licenseName, restricted: pair.1.restricted, text: credit.text,
                    html: credit.html, markdown: attribution.markdown, xml: attribution.xml)
            }
            warnings = credits.warnings.map { warning in
                Warning(
                    code: warning.concern.rawValue, message: warning.message,
                    itemIds: warning.indices.map { credits.entries[$0].id })
            }
        }
    }
}
