import Foundation
import TesseraCore
import TesseraLibrary
import Testing

@Suite("The local source over indexed sample photos")
struct LocalSourceTests {
    private func indexedSamples() async throws -> (TempFolder, Library, LocalSource) {
        let folder = try TempFolder()
        for sample in Sample.allCases { try folder.copy(sample, to: sample.rawValue) }
        let library = try Library()
        _ = try await library.index(folder)
        return (folder, library, LocalSource(store: library.store, roots: [folder.path]))
    }

    @Test func withoutFoldersItIsDisabledWithTheReason() async throws {
        let library = try Library()
        let source = LocalSource(store: library.store, roots: [])
        #expect(source.availability == .disabled(reason: "start with --library DIR or set TESSERA_LIBRARY"))
        #expect(source.id == .local && source.sections == [.local] && source.kinds == [.image])
        await #expect(throws: SourceError.self) { try await source.search("cat", in: .local, page: 1) }
        #expect(LocalSource(store: library.store, roots: ["/photos"]).availability == .enabled)
    }

    @Test func itemsCarryTheEmbeddedCreditsAndPathTags() async throws {
        let (folder, _, source) = try await indexedSamples()
        defer { folder.delete() }
        let page = try await source.search("tabby", in: .local, page: 1)
        #expect(page.total == 1 && !page.hasMore)
        let item = try #require(page.items.first)
        #expect(item.id.source == .local && item.source == .local && item.kind == .image)
        #expect(item.id.nativeID.count == 16)
        #expect(item.title == "Chelsea the tabby cat")
        #expect(item.creator == Creator(name: "Stefan van der Walt"))
        #expect(item.license == License(name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/"))
        #expect(item.pageURL == nil)
        for tag in ["cat", "tabby", "kitten", "pets", "chelsea"] { #expect(item.tags.contains(tag), "\(tag)") }
        #expect(Set(item.tags).count == item.tags.count, "normalised: no repeats")

        let thumbnail = try #require(item.thumbnail)
        #expect((thumbnail.width, thumbnail.height) == (400, 266))
        #expect((item.preview?.width, item.preview?.height) == (451, 300))
        #expect((item.full?.width, item.full?.height) == (451, 300))
        #expect(thumbnail.url.hasPrefix("local:" + folder.path))
        #expect(thumbnail.url.contains("?v=\(Sample.cat.data.count)-"), "versioned by size and time")
        let file = try LibraryFiles(roots: source.roots).file(for: ImageReference(parsing: thumbnail.url))
        #expect(try Data(contentsOf: file) == Sample.cat.data)

        let labels = item.metadata.map(\.label)
        for label in ["Caption", "File name", "Folder", "File size", "Dimensions", "Format", "Copyright"] {
            #expect(labels.contains(label), "\(label)")
        }
        #expect(item.metadata.first { $0.label == "File name" }?.value == "chelsea-the-tabby-cat.jpg")
        #expect(item.metadata.first { $0.label == "Folder" }?.value == "Pets")
        #expect(item.metadata.first { $0.label == "Dimensions" }?.value == "451 × 300")
        #expect(item.metadata.first { $0.label == "Format" }?.value == "JPEG")
    }

    @Test func everySampleIsFoundByItsSubjectAndCredited() async throws {
        let (folder, _, source) = try await indexedSamples()
        defer { folder.delete() }
        let expected: [(String, String)] = [
            ("espresso", "Rachel Michetti"), ("astronaut", "NASA"), ("falcon rocket", "SpaceX"),
            ("hubble galaxies", "NASA, ESA and the HUDF09 Team"), ("tripod", "Lav Varshney"),
        ]
        for (query, creator) in expected {
            let items = try await source.search(query, in: .local, page: 1).items
            #expect(items.count == 1, "\(query)")
            #expect(items.first?.creator?.name == creator, "\(query)")
            #expect(items.first?.license != nil, "\(query)")
        }
        #expect(try await source.search("space", in: .local, page: 1).total == 3, "the folder name is a tag")
    }

    @Test func itemByIDAndItsStabilityAcrossReindexing() async throws {
        let (folder, library, source) = try await indexedSamples()
        defer { folder.delete() }
        let found = try #require(try await source.search("espresso", in: .local, page: 1).items.first)
        #expect(try await source.item(nativeID: found.id.nativeID) == found)

        try folder.touch(Sample.espresso.rawValue, Date(timeIntervalSince1970: 1_600_000_000))
        _ = try await library.index(folder)
        let again = try await source.item(nativeID: found.id.nativeID)
        #expect(again.id == found.id, "re-reading a file keeps its id")
        #expect(again.full?.url != found.full?.url, "but its image version changes")

        await #expect(throws: SourceError.notFound(.local, id: "0000000000000000")) {
            try await source.item(nativeID: "0000000000000000")
        }
        let elsewhere = LocalSource(store: library.store, roots: ["/some/other/folder"])
        await #expect(throws: SourceError.notFound(.local, id: found.id.nativeID)) {
            try await elsewhere.item(nativeID: found.id.nativeID)
        }
        #expect(try await elsewhere.search("espresso", in: .local, page: 1).items.isEmpty)
    }
}
