import Foundation
import GRDB
import TesseraCore
import TesseraImageProcessing
import TesseraLibrary
import Testing

/// Colours are computed once, at index time, and an index made before they were gets them on its next run
/// (docs/filters.md).
@Suite("Palettes at index time")
struct IndexerPaletteTests {
    private func sampleFolder() throws -> TempFolder {
        let folder = try TempFolder()
        for sample in Sample.allCases { try folder.copy(sample, to: sample.rawValue) }
        return folder
    }

    @Test func everyIndexedPhotoHasItsPaletteAndLicenceFacts() async throws {
        let folder = try sampleFolder()
        defer { folder.delete() }
        let library = try Library()
        let summary = try await library.index(folder)
        #expect(summary.added == Sample.allCases.count)
        for sample in Sample.allCases {
            let photo = try #require(try await library.store.photo(root: summary.root, path: sample.rawValue))
            #expect(photo.palette != nil && photo.palette != .empty, "\(sample)")
        }
        let hubble = try await library.store.photo(root: summary.root, path: Sample.hubble.rawValue)
        #expect(hubble?.palette?.colors.contains(.black) == true)
        let photographer = try await library.store.photo(root: summary.root, path: Sample.photographer.rawValue)
        #expect(photographer?.palette?.colors.contains(.grayscale) == true)

        let grayscale = try await library.store.search(
            SearchQuery("photographer"), filters: SearchFilters(color: .grayscale))
        #expect(grayscale.photos.map(\.path) == [Sample.photographer.rawValue])
        let licence = try #require(photographer).item.license
        let byLicence = try await library.store.search(
            SearchQuery("photographer"),
            filters: SearchFilters(license: .init(ids: [try #require(licence?.id)])))
        #expect(byLicence.total == 1, "the licence stored at index time is the one the item shows")
    }

    /// What migration `v6-filters` leaves: rows with no palette and no licence facts. The next run reads those
    /// files again (and only those), then they are unchanged as before.
    @Test func photosIndexedBeforePalettesAreReadAgainOnce() async throws {
        let folder = try sampleFolder()
        defer { folder.delete() }
        let library = try Library()
        let first = try await library.index(folder)
        try await library.store.database.write { db in
            try db.execute(
                sql: """
                    UPDATE libraryPhoto SET colors = NULL, licenseId = NULL, licenseFamily = NULL,
                        commercialUse = NULL, modificationAllowed = NULL WHERE path <> ?
                    """, arguments: [Sample.cat.rawValue])
        }
        #expect(try await library.store.pathsWithoutPalette(root: first.root).count == Sample.allCases.count - 1)
        let none = try await library.store.search(SearchQuery("space"), filters: SearchFilters(color: .black))
        #expect(none.total == 0, "no palette, no colour match, until the indexer has run")

        let second = try await library.index(folder)
        #expect(second.updated == Sample.allCases.count - 1)
        #expect(second.unchanged == 1, "the cat had its palette")
        #expect(try await library.store.pathsWithoutPalette(root: first.root).isEmpty)
        let hubble = try await library.store.search(SearchQuery("space"), filters: SearchFilters(color: .black))
        #expect(hubble.photos.map(\.path).contains(Sample.hubble.rawValue))

        let third = try await library.index(folder)
        #expect(third.unchanged == Sample.allCases.count && third.updated == 0)
    }

    @Test func aFileWhosePixelsCannotBeDecodedIsIndexedWithNoColours() async throws {
        let folder = try TempFolder()
        defer { folder.delete() }
        // The header is whole, the pixels are cut short.
        try folder.write(Sample.hubble.data.prefix(Sample.hubble.data.count / 2), to: "cut.jpg")
        let library = try Library()
        let summary = try await library.index(folder)
        let photo = try await library.store.photo(root: summary.root, path: "cut.jpg")
        #expect(photo?.palette == .empty)
        #expect(try await library.store.pathsWithoutPalette(root: summary.root).isEmpty, "not read at every run")
    }
}
