import ArgumentParser
import Foundation
import TesseraClient
import TesseraCore
import TesseraGalleries

// `tessera gallery … --server`: the same steps as the local forms, asked of a running Tessera. Local types
// are spelled with their module: TesseraClient has types of the same names.

extension Remote {
    static func galleries(deleted: Bool, on client: TesseraClient) async throws -> [TesseraGalleries.Gallery] {
        try local(try await run { () async throws(TesseraClientError) in try await client.galleries(deleted: deleted) })
    }

    static func createGallery(named name: String, on client: TesseraClient) async throws -> TesseraGalleries.Gallery {
        try local(try await run { () async throws(TesseraClientError) in try await client.createGallery(named: name) })
    }

    /// The gallery `argument` names, found as `GalleryService.find` finds it (an id, else a name by
    /// `GalleryService.named`); its failures said as locally.
    static func find(_ argument: String, on client: TesseraClient) async throws -> TesseraGalleries.Gallery {
        if TesseraGalleries.GalleryID(argument) != nil {
            let found: Result<ClientGallery, TesseraClientError>
            do throws(TesseraClientError) {
                found = .success(try await client.gallery(.init(argument)))
            } catch {
                found = .failure(error)
            }
            switch found {
            case .success(var gallery):
                gallery.items = nil
                return try local(gallery)
            case .failure(.notFound):
                break  // No gallery has this id: it may still be a name.
            case .failure(let error):
                throw exitCode(for: error)
            }
        }
        var matches = TesseraGalleries.GalleryService.named(
            argument, in: try await galleries(deleted: false, on: client))
        if matches.isEmpty {
            matches = TesseraGalleries.GalleryService.named(
                argument, in: try await galleries(deleted: true, on: client))
        }
        do throws(TesseraGalleries.GalleryError) {
            return try TesseraGalleries.GalleryService.one(of: matches, named: argument)
        } catch {
            throw GalleryCLI.findFailure(argument, error)
        }
    }

    /// Adds `what` to `target` as `tessera gallery add` does locally; the index is where the item went.
    static func add(
        _ what: ImageArgument, to target: TesseraGalleries.Gallery, at index: Int?, allowNearDuplicate: Bool,
        maxBytes: Int, on client: TesseraClient
    ) async throws -> (item: TesseraGalleries.GalleryItem, index: Int) {
        let id = ClientGalleryID(target.id.rawValue)
        let added: AddedGalleryItem
        switch what {
        case .url(let url):
            added = try await run { () async throws(TesseraClientError) in
                try await client.addItem(url: url, to: id, at: index, allowNearDuplicate: allowNearDuplicate)
            }
        case .file(let file):
            let data = try ImageArgument.read(file, limit: maxBytes)
            added = try await run { () async throws(TesseraClientError) in
                try await client.addItem(
                    upload: data, fileName: file.lastPathComponent, to: id, at: index,
                    allowNearDuplicate: allowNearDuplicate)
            }
        case .item(let itemID):
            let item: ClientItem
            do throws(TesseraClientError) {
                item = try await client.item(itemID.description)
            } catch {
                // An id the source does not know is a typo; anything else is the source's trouble.
                if case .notFound = error { throw Exit.badInput(error.description) }
                throw Exit.failure(error.description)
            }
            added = try await run { () async throws(TesseraClientError) in
                try await client.addItem(item, to: id, at: index, allowNearDuplicate: allowNearDuplicate)
            }
        }
        // The answer does not say the index; without one asked for, the item went last.
        return (try local(added.item), min(index ?? target.itemCount, target.itemCount))
    }

    /// The ZIP, and how many of the gallery's items are restricted (read from the gallery, as the server
    /// decides it: their files are in the ZIP only with `includeRestricted`).
    static func export(_ target: TesseraGalleries.Gallery, includeRestricted: Bool, on client: TesseraClient)
        async throws -> (zip: Data, restricted: Int)
    {
        try await run { () async throws(TesseraClientError) in
            let restricted = try await client.gallery(.init(target.id.rawValue)).items?.count(where: \.restricted)
            let zip = try await client.exportGallery(.init(target.id.rawValue), includeRestricted: includeRestricted)
            return (zip, restricted ?? 0)
        }
    }
}

extension Remote {
    /// The credits document `format` names (`text`, `html`, `markdown`), as the server writes it.
    static func credits(of target: TesseraGalleries.Gallery, format: String, on client: TesseraClient)
        async throws -> String
    {
        let format = GalleryCreditsFormat(rawValue: format) ?? .text
        return try await run { () async throws(TesseraClientError) in
            try await client.galleryCredits(.init(target.id.rawValue), format: format)
        }
    }
}
