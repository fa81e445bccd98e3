import Foundation
import OpenAPIRuntime

/// Galleries. Every change takes an optional `revision`: with it, the change applies only if the gallery is
/// still at that revision (sent as `If-Match`), else it throws `.revisionMismatch` with the current one;
/// without it, the change applies to whatever the gallery is now. Keep the revision each answer returns.
extension TesseraClient {
    /// The galleries, most recently updated first (without items); `deleted: true` lists Recently deleted.
    public func galleries(deleted: Bool = false) async throws(TesseraClientError) -> [Gallery] {
        try await call {
            try await client.listGalleries(query: .init(deleted: deleted)).ok.body.json.map(Gallery.init)
        }
    }

    /// One gallery with its items in order (also while in Recently deleted).
    public func gallery(_ id: GalleryID) async throws(TesseraClientError) -> Gallery {
        try await call { Gallery(try await client.getGallery(path: .init(id: id.rawValue)).ok.body.json) }
    }

    /// Creates an empty gallery named `name` (1–100 characters; names need not be unique).
    public func createGallery(named name: String) async throws(TesseraClientError) -> Gallery {
        try await call {
            Gallery(try await client.createGallery(body: .json(.init(name: name))).created.body.json)
        }
    }

    /// Renames a gallery.
    public func renameGallery(_ id: GalleryID, to name: String, revision: Int? = nil)
        async throws(TesseraClientError) -> Gallery
    {
        try await call {
            let output = try await client.renameGallery(
                path: .init(id: id.rawValue), headers: .init(ifMatch: Revision.ifMatch(revision)),
                body: .json(.init(name: name)))
            return Gallery(try output.ok.body.json)
        }
    }

    /// Moves a gallery to Recently deleted; it comes back with `restoreGallery`.
    public func deleteGallery(_ id: GalleryID, revision: Int? = nil) async throws(TesseraClientError) -> Gallery {
        try await call {
            let output = try await client.deleteGallery(
                path: .init(id: id.rawValue), query: .init(permanent: false),
                headers: .init(ifMatch: Revision.ifMatch(revision)))
            return Gallery(try output.ok.body.json)
        }
    }

    /// Deletes a gallery for good, with the images no other gallery uses.
    public func deleteGalleryPermanently(_ id: GalleryID, revision: Int? = nil) async throws(TesseraClientError) {
        try await call {
            _ = try await client.deleteGallery(
                path: .init(id: id.rawValue), query: .init(permanent: true),
                headers: .init(ifMatch: Revision.ifMatch(revision))
            ).noContent
        }
    }

    /// Brings a gallery back from Recently deleted.
    public func restoreGallery(_ id: GalleryID, revision: Int? = nil) async throws(TesseraClientError) -> Gallery {
        try await call {
            let output = try await client.restoreGallery(
                path: .init(id: id.rawValue), headers: .init(ifMatch: Revision.ifMatch(revision)))
            return Gallery(try output.ok.body.json)
        }
    }

    /// Adds a search result (as this server answered it) at `index` (default: the end); the gallery keeps
    /// its own copy of the item's largest image.
    /// With `allowNearDuplicate` it is added even when the gallery holds the same picture (else
    /// `nearDuplicate`); likewise for the two below.
    public func addItem(
        _ item: Item, to id: GalleryID, at index: Int? = nil, revision: Int? = nil, allowNearDuplicate: Bool = false
    ) async throws(TesseraClientError) -> AddedGalleryItem {
        guard let generated = item.generated else {
            throw .badRequest(
                status: 400, code: "invalid_item", message: "\(item.id) is not from a source this server knows.")
        }
        let payload = Operations.AddGalleryItem.Input.Body.JsonPayload.case1(
            .init(
                item: .init(value1: generated, value2: .init(value1: .init())), index: index,
                allowNearDuplicate: allowNearDuplicate ? true : nil))
        return try await addItem(.json(payload), to: id, revision: revision)
    }

    /// Adds the image at an http(s) address, which the server fetches (with its guarded fetcher).
    public func addItem(
        url: String, to id: GalleryID, at index: Int? = nil, revision: Int? = nil, allowNearDuplicate: Bool = false
    ) async throws(TesseraClientError) -> AddedGalleryItem {
        let payload = Operations.AddGalleryItem.Input.Body.JsonPayload.case2(
            .init(url: url, index: index, allowNearDuplicate: allowNearDuplicate ? true : nil))
        return try await addItem(.json(payload), to: id, revision: revision)
    }

    /// Uploads image bytes (a file's), named `fileName` for the item's title.
    public func addItem(
        upload data: Data, fileName: String, to id: GalleryID, at index: Int? = nil, revision: Int? = nil,
        allowNearDuplicate: Bool = false
    ) async throws(TesseraClientError) -> AddedGalleryItem {
        var parts: [Operations.AddGalleryItem.Input.Body.MultipartFormPayload] = [
            .file(.init(payload: .init(body: HTTPBody(data)), filename: fileName))
        ]
        if let index { parts.append(.index(.init(payload: .init(body: HTTPBody(String(index)))))) }
        if allowNearDuplicate { parts.append(.allowNearDuplicate(.init(payload: .init(body: HTTPBody("true"))))) }
        return try await addItem(.multipartForm(MultipartBody(parts)), to: id, revision: revision)
    }

    private func addItem(_ body: Operations.AddGalleryItem.Input.Body, to id: GalleryID, revision: Int?)
        async throws(TesseraClientError) -> AddedGalleryItem
    {
        try await call {
            let created = try await client.addGalleryItem(
                path: .init(id: id.rawValue), headers: .init(ifMatch: Revision.ifMatch(revision)), body: body
            ).created
            guard let revision = Revision.parse(created.headers.eTag) else {
                throw TesseraClientError.unexpectedResponse("an ETag that is not a revision: \(created.headers.eTag)")
            }
            return AddedGalleryItem(item: GalleryItem(try created.body.json), revision: revision)
        }
    }

    /// Removes an item from a gallery.
    public func removeItem(_ itemID: GalleryItemID, from id: GalleryID, revision: Int? = nil)
        async throws(TesseraClientError) -> GalleryRevision
    {
        try await call {
            let answer = try await client.removeGalleryItem(
                path: .init(id: id.rawValue, itemId: itemID.rawValue),
                headers: .init(ifMatch: Revision.ifMatch(revision))
            ).ok.body.json
            return GalleryRevision(revision: answer.revision, index: answer.index)
        }
    }

    /// Moves an item to `index` in the order after the move (0 is first).
    public func moveItem(_ itemID: GalleryItemID, in id: GalleryID, to index: Int, revision: Int? = nil)
        async throws(TesseraClientError) -> GalleryRevision
    {
        try await call {
            let answer = try await client.moveGalleryItem(
                path: .init(id: id.rawValue, itemId: itemID.rawValue),
                headers: .init(ifMatch: Revision.ifMatch(revision)), body: .json(.init(index: index))
            ).ok.body.json
            return GalleryRevision(revision: answer.revision, index: answer.index)
        }
    }

    /// The gallery as a ZIP file (its images in order and gallery.json), at most `limit` bytes.
    public func exportGallery(
        _ id: GalleryID, includeRestricted: Bool = false, limit: Int = 2 * 1_073_741_824
    ) async throws(TesseraClientError) -> Data {
        try await call {
            let body = try await client.exportGallery(
                path: .init(id: id.rawValue), query: .init(includeRestricted: includeRestricted ? ._true : nil)
            ).ok.body.applicationZip
            return try await Data(collecting: body, upTo: limit)
        }
    }

    /// The gallery's credits as one document (docs/licences.md, "Credits"): `text` (the export's
    /// CREDITS.txt), `html` (its credits.html) or `markdown`; at most `limit` bytes.
    public func galleryCredits(_ id: GalleryID, format: GalleryCreditsFormat, limit: Int = 64 * 1_048_576)
        async throws(TesseraClientError) -> String
    {
        try await call {
            let query = Operations.GalleryCredits.Input.Query(format: .init(rawValue: format.rawValue))
            let body = try await client.galleryCredits(path: .init(id: id.rawValue), query: query).ok.body
            let bytes: HTTPBody =
                switch body {
                case .plainText(let bytes), .html(let bytes), .textMarkdown(let bytes): bytes
                case .json:
                    throw TesseraClientError.unexpectedResponse("credits as JSON, not \(format.rawValue)")
                }
            return String(decoding: try await Data(collecting: bytes, upTo: limit), as: UTF8.self)
        }
    }
}

/// The forms `galleryCredits` asks for.
public enum GalleryCreditsFormat: String, Sendable, CaseIterable {
    case text, html, markdown
}
