import Foundation
import TesseraCore
import TesseraImageProcessing
import TesseraLibrary
import TesseraPostgres
import TesseraSQLite
import TesseraTestSupport
import Testing

/// The library's search filters (docs/filters.md) on both engines: applied in SQL, so totals and pages count
/// only what passes, and the same photos as `SearchFilters.check` picks from their items.
@Suite("Library filters on both engines")
struct LibraryFilterContractTests {
    static let root = "/photos"
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func photo(
        _ path: String, _ width: Int?, _ height: Int?, colors: Set<SearchFilters.Color>?, license: String? = nil,
        copyright: String? = nil
    ) -> LibraryPhoto {
        var photo = LibraryPhoto(
            root: Self.root, path: path, stamp: FileStamp(size: 1000, modifiedNanoseconds: 1), format: "jpeg",
            width: width, height: height, title: "Harbour \(path)", copyright: copyright, indexedAt: now,
            palette: colors.map(ColorPalette.init))
        if let license { photo.metadata = [MetadataEntry("Folder licence", license)] }
        return photo
    }

    /// Sizes on each side of the thresholds (1.1 ×, 640 px, 1600 px), every licence fact, and a photo indexed
    /// before palettes were.
    private var sample: [LibraryPhoto] {
        [
            photo("wide.jpg", 1920, 1080, colors: [.blue, .white], license: "cc0"),
            photo("tall.jpg", 1000, 3000, colors: [.green], license: "cc-by-nc-4.0"),
            photo("big-square.jpg", 2000, 2100, colors: [.red, .transparent], license: "cc-by-sa-2.0"),
            photo("edge-square.jpg", 660, 600, colors: [.gray, .grayscale], copyright: "© 2020 Ann"),
            photo("edge-wide.jpg", 661, 600, colors: nil),
            photo("unsized.jpg", nil, nil, colors: [.blue], license: "cc-by-nd-4.0"),
            photo("just-medium.jpg", 1599, 2400, colors: [.black], license: "pixabay"),
            photo("just-large.jpg", 1600, 1600, colors: [.black, .white], license: "cc-by-4.0"),
            photo("just-small.jpg", 639, 2000, colors: [], license: "cc-by-sa-4.0"),
        ]
    }

    private func paths(_ store: any LibraryStoring, _ filters: SearchFilters) async throws -> Set<String> {
        let page = try await store.search(SearchQuery("harbour"), roots: nil, filters: filters, page: 1, pageSize: 50)
        #expect(page.total == page.photos.count, "the total counts what passes: \(filters)")
        return Set(page.photos.map(\.path))
    }

    private static func parse(_ name: SearchFilters.Name, _ value: String) throws -> SearchFilters {
        try SearchFilters.parse(
            license: name == .license ? value : nil, orientation: name == .orientation ? value : nil,
            size: name == .size ? value : nil, color: name == .color ? value : nil, type: name == .type ? value : nil)
    }

    @Test(arguments: Engine.allCases)
    func eachFilterPicksThePhotosItsRuleNames(engine: Engine) async throws {
        try await LibraryStoreContractTests.withStore(engine) { store in
            try await store.save(sample)
            func expect(_ name: SearchFilters.Name, _ value: String, _ expected: Set<String>) async throws {
                let found = try await paths(store, try Self.parse(name, value))
                #expect(found == expected, "\(name.rawValue)=\(value)")
            }
            try await expect(.orientation, "square", ["big-square.jpg", "edge-square.jpg", "just-large.jpg"])
            try await expect(.orientation, "landscape", ["wide.jpg", "edge-wide.jpg"])
            try await expect(.orientation, "portrait", ["tall.jpg", "just-medium.jpg", "just-small.jpg"])
            try await expect(.size, "small", ["edge-square.jpg", "edge-wide.jpg", "just-small.jpg"])
            try await expect(.size, "medium", ["wide.jpg", "tall.jpg", "just-medium.jpg"])
            try await expect(.size, "large", ["big-square.jpg", "just-large.jpg"])
            try await expect(.color, "blue", ["wide.jpg", "unsized.jpg"])
            try await expect(.color, "black", ["just-medium.jpg", "just-large.jpg"])
            try await expect(.color, "transparent", ["big-square.jpg"])
            try await expect(.color, "grayscale", ["edge-square.jpg"])
            try await expect(.color, "pink", [])
            try await expect(.type, "photo", Set(sample.map(\.path)))
            try await expect(.type, "illustration", [])
            try await expect(.type, "vector", [])
            try await expect(.license, "cc-by-sa", ["big-square.jpg", "just-small.jpg"])
            try await expect(.license, "cc-by-sa-2.0,cc0", ["big-square.jpg", "wide.jpg"])
            try await expect(.license, "all-rights-reserved", ["edge-square.jpg"])
            try await expect(
                .license, "commercial,modification",
                ["wide.jpg", "big-square.jpg", "just-medium.jpg", "just-large.jpg", "just-small.jpg"])
            try await expect(.license, "commercial,cc-by-nc", [])
        }
    }

    /// Every filter value, alone and with others: the index picks exactly the photos whose items pass
    /// `SearchFilters.check` (licence, orientation, size) and whose palette has the colour.
    @Test(arguments: Engine.allCases)
    func theIndexAgreesWithTheChecksOnTheItems(engine: Engine) async throws {
        let sample = self.sample
        let licenses = [
            "commercial", "modification", "cc-by", "cc0,pixabay", "cc-by-nc-4.0", "all-rights-reserved", "reusable",
            "reusable,commercial", "reusable,all-rights-reserved",
        ]
        var combinations: [SearchFilters] = []
        for orientation in [nil] + SearchFilters.Orientation.allCases {
            for size in [nil] + SearchFilters.Size.allCases {
                for license in [nil] + licenses {
                    combinations.append(
                        try SearchFilters.parse(
                            license: license, orientation: orientation?.rawValue, size: size?.rawValue, color: nil,
                            type: nil))
                }
            }
        }
        combinations += SearchFilters.Color.allCases.map { SearchFilters(orientation: .square, color: $0) }
        combinations += SearchFilters.Color.allCases.map { SearchFilters(color: $0) }
        try await LibraryStoreContractTests.withStore(engine) { [combinations] store in
            try await store.save(sample)
            for filters in combinations {
                let expected = sample.filter { photo in
                    let item = photo.item
                    let checks = [SearchFilters.Name.license, .orientation, .size].allSatisfy {
                        filters.check($0, item) == true
                    }
                    return checks && filters.color.map { photo.palette?.colors.contains($0) == true } ?? true
                }
                #expect(try await paths(store, filters) == Set(expected.map(\.path)), "\(filters.queryItems)")
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func pagesAndTotalsCountOnlyWhatPasses(engine: Engine) async throws {
        try await LibraryStoreContractTests.withStore(engine) { store in
            let photos = (0..<45).map { index in
                photo("\(index).jpg", index % 3 == 0 ? 800 : 600, 600, colors: index % 3 == 0 ? [.red] : [.blue])
            }
            try await store.save(photos)
            let filters = SearchFilters(orientation: .landscape, color: .red)
            var seen: [String] = []
            for page in 1...2 {
                let result = try await store.search(
                    SearchQuery("harbour"), roots: nil, filters: filters, page: page, pageSize: 10)
                #expect(result.total == 15)
                #expect(result.hasMore == (page == 1))
                seen += result.photos.map(\.path)
            }
            #expect(Set(seen) == Set(stride(from: 0, to: 45, by: 3).map { "\($0).jpg" }))
            #expect(seen.count == 15, "each photo on one page only")
            let roots = try await store.search(
                SearchQuery("harbour"), roots: ["/elsewhere"], filters: filters, page: 1, pageSize: 10)
            #expect(roots.total == 0, "folders and filters together")
        }
    }

    @Test(arguments: Engine.allCases)
    func palettesAreKeptAndPhotosWithoutOneAreListed(engine: Engine) async throws {
        try await LibraryStoreContractTests.withStore(engine) { store in
            try await store.save(sample)
            let stored = try #require(try await store.photo(root: Self.root, path: "big-square.jpg"))
            #expect(stored.palette == ColorPalette([.red, .transparent]))
            #expect(try await store.photo(root: Self.root, path: "just-small.jpg")?.palette == .empty)
            #expect(try await store.pathsWithoutPalette(root: Self.root) == ["edge-wide.jpg"])
            try await store.save([photo("edge-wide.jpg", 661, 600, colors: [.orange])])
            #expect(try await store.pathsWithoutPalette(root: Self.root).isEmpty)
            #expect(try await paths(store, SearchFilters(color: .orange)) == ["edge-wide.jpg"])
        }
    }
}
