import Foundation
import TesseraLibrary
import TesseraSQLite
import Testing

@Suite("Library store: full-text search")
struct StoreSearchTests {
    private let root = "/photos"
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func photo(
        _ path: String, title: String, caption: String? = nil, keywords: [String] = [], tags: [String] = [],
        root: String? = nil
    ) -> LibraryPhoto {
        LibraryPhoto(
            root: root ?? self.root, path: path, stamp: FileStamp(size: 1000, modifiedNanoseconds: 1), format: "jpeg",
            width: 800, height: 600, title: title, caption: caption, keywords: keywords, tags: tags, indexedAt: now)
    }

    private func store(_ photos: [LibraryPhoto]) async throws -> SQLiteLibraryStore {
        let store = SQLiteLibraryStore(database: try AppDatabase.inMemory())
        try await store.save(photos)
        return store
    }

    private func titles(_ store: SQLiteLibraryStore, _ query: String, roots: [String]? = nil) async throws -> Set<
        String
    > {
        Set(try await store.search(SearchQuery(query), roots: roots).photos.map(\.title))
    }

    private var sample: [LibraryPhoto] {
        [
            photo("a.jpg", title: "Espresso at the bar", keywords: ["coffee", "cup"], tags: ["cafe"]),
            photo("b.jpg", title: "Falcon 9 launch", keywords: ["rocket", "space"], tags: ["space"]),
            photo("c.jpg", title: "Astronaut portrait", keywords: ["space", "nasa"], tags: ["space"]),
            photo("d.jpg", title: "Café in Montréal", caption: "Crème brûlée on the terrace"),
            photo("e.jpg", title: "Near the sea", tags: ["holiday"]),
            photo("f.jpg", title: "Sleeping cat", caption: "Our tabby on the sofa", tags: ["pets"]),
        ]
    }

    @Test func everyWordIsAPrefix() async throws {
        let store = try await store(sample)
        #expect(try await titles(store, "espr") == ["Espresso at the bar"])
        #expect(try await titles(store, "cof") == ["Espresso at the bar"], "keywords are searched")
        #expect(try await titles(store, "tabb") == ["Sleeping cat"], "captions are searched")
        #expect(try await titles(store, "PETS") == ["Sleeping cat"], "tags are searched, case does not matter")
        #expect(try await titles(store, "spa") == ["Falcon 9 launch", "Astronaut portrait"])
    }

    @Test func allWordsMustMatch() async throws {
        let store = try await store(sample)
        #expect(try await titles(store, "space rocket") == ["Falcon 9 launch"])
        #expect(try await titles(store, "space nas") == ["Astronaut portrait"])
        #expect(try await titles(store, "space cat").isEmpty)
    }

    @Test func diacriticsDoNotMatter() async throws {
        let store = try await store(sample)
        #expect(try await titles(store, "cafe montreal") == ["Café in Montréal"])
        #expect(try await titles(store, "creme brulee") == ["Café in Montréal"])
        #expect(try await titles(store, "Montréal") == ["Café in Montréal"])
    }

    @Test(arguments: [
        "\"", "\"cat", "cat\"", "*", "cat*", "-cat", "cat -sofa", "NEAR(cat sofa)", "cat NEAR sofa", "title:cat",
        "(cat", "cat)", "cat AND", "OR cat", "NOT cat", "^cat", "cat + sofa", "'cat'", "cat\\", "{title}: cat",
        "%", "cat;DROP TABLE libraryPhoto;--",
    ])
    func ftsSyntaxInTheQueryIsJustText(query: String) async throws {
        let store = try await store(sample)
        let result = try await store.search(SearchQuery(query))
        let words = SearchQuery(query).words.map { $0.lowercased() }
        if words == ["cat"] {
            #expect(result.photos.map(\.title) == ["Sleeping cat"])
        }
        #expect(try await store.count() == sample.count, "the table is intact")
    }

    @Test func operatorWordsAreOrdinaryWords() async throws {
        let store = try await store(sample)
        #expect(try await titles(store, "near") == ["Near the sea"])
        #expect(try await titles(store, "NEAR sea") == ["Near the sea"])
        #expect(try await titles(store, "sea-near") == ["Near the sea"], "- splits words, it does not exclude")
        #expect(try await titles(store, "title:sleeping").isEmpty, "not a column filter: \"title\" is a word too")
    }

    @Test func aQueryWithoutWordsFindsNothing() async throws {
        let store = try await store(sample)
        #expect(SearchQuery("*** --- \"\"").isEmpty)
        #expect(try await store.search(SearchQuery("*** --- \"\"")) == .empty)
    }

    @Test func titleMatchesRankAboveCaptionMatches() async throws {
        let store = try await store([
            photo("1.jpg", title: "Garden party", caption: "A heron flew over"),
            photo("2.jpg", title: "Grey heron by the pond"),
        ])
        let result = try await store.search(SearchQuery("heron"))
        #expect(result.photos.map(\.path) == ["2.jpg", "1.jpg"])
    }

    @Test func pagesOfTwentyWithTotalAndHasMore() async throws {
        let photos = (1...45).map { photo("lake-\($0).jpg", title: "Lake view \($0)") }
        let store = try await store(photos + [photo("other.jpg", title: "Mountain")])
        let first = try await store.search(SearchQuery("lake"), page: 1)
        #expect(first.photos.count == 20)
        #expect(first.total == 45)
        #expect(first.hasMore)
        let third = try await store.search(SearchQuery("lake"), page: 3)
        #expect(third.photos.count == 5)
        #expect(!third.hasMore)
        let fourth = try await store.search(SearchQuery("lake"), page: 4)
        #expect(fourth.photos.isEmpty && fourth.total == 45 && !fourth.hasMore)
        var seen = Set<String>()
        for page in 1...3 {
            for found in try await store.search(SearchQuery("lake"), page: page).photos {
                #expect(seen.insert(found.id).inserted, "each photo on one page only")
            }
        }
        #expect(seen.count == 45)
    }

    @Test func savingAgainReplacesAndRemovingForgets() async throws {
        let store = try await store(sample)
        let id = try #require(try await store.photo(root: root, path: "f.jpg")).id
        try await store.save([photo("f.jpg", title: "Sleeping dog", tags: ["pets"])])
        #expect(try await titles(store, "cat").isEmpty, "the old words are gone from the index")
        #expect(try await titles(store, "dog") == ["Sleeping dog"])
        #expect(try await store.photo(id: id)?.title == "Sleeping dog", "same file, same id")
        #expect(try await store.count() == sample.count)

        #expect(try await store.remove(paths: ["f.jpg", "missing.jpg"], root: root) == 1)
        #expect(try await titles(store, "dog").isEmpty)
        #expect(try await store.photo(id: id) == nil)
        #expect(try await store.count() == sample.count - 1)
    }

    @Test func rowsKeepEveryField() async throws {
        var original = photo("2023/Lisbon/tram.jpg", title: "Tram 28", caption: "Yellow tram", keywords: ["tram"])
        original.creator = "Ann"
        original.copyright = "© 2023 Ann"
        original.capturedAt = Date(timeIntervalSince1970: 1_690_000_000)
        original.camera = "Fujifilm X100V"
        original.metadata = [.init("ISO", "200"), .init("Lens", "23 mm")]
        let store = try await store([original])
        let read = try #require(try await store.photo(id: original.id))
        #expect(read == original)
        #expect(read.folder == "2023/Lisbon")
        #expect(read.fileName == "tram.jpg")
        #expect(read.absolutePath == "/photos/2023/Lisbon/tram.jpg")
    }
}
