import TesseraCore
import Testing

@Suite("Search filters: parsing and Tessera's own checks")
struct SearchFiltersTests {
    @Test func parsesEveryFilterAndRefusesTheRest() throws {
        let filters = try SearchFilters.parse(
            license: "commercial,cc-by,cc0,cc-by", orientation: "square", size: "large", color: "transparent",
            type: "vector")
        #expect(filters.license?.commercial == true && filters.license?.modification == false)
        #expect(filters.license?.ids == ["cc-by", "cc0"], "repeats dropped")
        #expect(filters.names == [.license, .orientation, .size, .color, .type])
        #expect(
            filters.queryItems.map(\.value) == ["commercial,cc-by,cc0", "square", "large", "transparent", "vector"])
        #expect(try SearchFilters.parse(license: nil, orientation: nil, size: nil, color: nil, type: nil).isEmpty)
        for (name, value) in [("orientation", "wide"), ("size", ""), ("color", "Red"), ("type", "svg")] {
            #expect(throws: InputError.self) {
                try SearchFilters.parse(
                    license: nil, orientation: name == "orientation" ? value : nil, size: name == "size" ? value : nil,
                    color: name == "color" ? value : nil, type: name == "type" ? value : nil)
            }
        }
        // Every id the document's pattern allows is one the server knows, versions included.
        for family in ["by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd"] {
            for version in ["", "-1.0", "-2.0", "-2.5", "-3.0", "-4.0", "-4.5"] {
                #expect(
                    try SearchFilters.parse(
                        license: "cc-\(family)\(version)", orientation: nil, size: nil, color: nil, type: nil
                    ).license?.ids.count == 1)
            }
        }
        for license in ["", "CC0", "cc0,", "gpl", "cc-by-5.0", "unknown", "cc-nc-by", "cc-sampling"] {
            #expect(throws: InputError.invalidLicenseFilter(license)) {
                try SearchFilters.parse(license: license, orientation: nil, size: nil, color: nil, type: nil)
            }
        }
    }

    @Test func licenceFilterNeverPassesUnknownAndMatchesFamilies() {
        var filter = SearchFilters.LicenseFilter()
        #expect(filter.allows(Licenses.pixabay) && !filter.allows(Licenses.unknown()) && !filter.allows(nil))
        filter.commercial = true
        #expect(!filter.allows(Licenses.flickr(id: "2")) && filter.allows(Licenses.flickr(id: "4")))
        filter.ids = ["cc-by-sa"]
        #expect(filter.allows(Licenses.flickr(id: "5")) && filter.allows(Licenses.flickr(id: "12")))
        #expect(!filter.allows(Licenses.flickr(id: "4")))
        filter.ids = ["cc-by-sa-4.0"]
        #expect(!filter.allows(Licenses.flickr(id: "5")) && filter.allows(Licenses.flickr(id: "12")))
    }

    @Test func orientationAndSizeThresholds() {
        let orientations: [(Int, Int, SearchFilters.Orientation)] = [
            (1000, 1000, .square), (1100, 1000, .square), (1101, 1000, .landscape), (1000, 1101, .portrait),
            (640, 480, .landscape), (3, 4, .portrait),
        ]
        for (width, height, expected) in orientations {
            #expect(SearchFilters.orientation(width: width, height: height) == expected, "\(width)×\(height)")
        }
        let sizes: [(Int, Int, SearchFilters.Size)] = [
            (639, 4000, .small), (640, 640, .medium), (4000, 1599, .medium), (1600, 1600, .large), (20, 20, .small),
        ]
        for (width, height, expected) in sizes {
            #expect(SearchFilters.size(width: width, height: height) == expected, "\(width)×\(height)")
        }
    }

    @Test func itemsWithoutTheFactsCannotBeChecked() throws {
        let filters = try SearchFilters.parse(
            license: nil, orientation: "landscape", size: nil, color: "red", type: nil)
        var item = Item(id: ItemID(source: .flickr, nativeID: "1"), kind: .image, title: "t")
        #expect(filters.check(.orientation, item) == nil)
        #expect(filters.check(.color, item) == nil)
        item.sizes = [ImageSize(name: "url_l", url: "x", width: 1024, height: 683)]
        #expect(filters.check(.orientation, item) == true)
        // The original's size, where the source names it, outranks the renditions served.
        item.metadata = [MetadataEntry("Original size", "2000 × 3000")]
        #expect(filters.check(.orientation, item) == false)
    }

    /// A service's sizes are untrusted numbers: their areas, compared to pick the largest, overflowed `Int`
    /// (replayed through `scripts/fuzz-parsers`' `json` target, whose items are checked by every filter).
    @Test func hugeSizesFromAServiceStillAnswer() throws {
        let filters = try SearchFilters.parse(
            license: nil, orientation: "landscape", size: "large", color: nil, type: nil)
        var item = Item(id: ItemID(source: .pixabay, nativeID: "1"), kind: .image, title: "t")
        item.full = ImageRef(url: "/f", width: 9_999_999_999, height: 9_999_999_999)
        item.sizes = [ImageSize(name: "large", url: "/l", width: 4, height: 3)]
        item.metadata = [MetadataEntry("Original size", "\(Int.max) × \(Int.max)")]
        #expect(filters.check(.orientation, item) == false, "the largest, square, wins")
        #expect(filters.check(.size, item) == true)
        item.full = ImageRef(url: "/f", width: Int.max, height: 2)
        item.metadata = []
        #expect(filters.check(.orientation, item) == true)
    }
}
