import Foundation
import TesseraCore
import TesseraLibrary
import TesseraPostgres
import TesseraSQLite
import TesseraTestSupport
import Testing

/// The photo index's contract, on both engines: the same tests, once on SQLite FTS5 and once on PostgreSQL
/// full-text search. Same matches, same query syntax rules, and for these photos the same order.
@Suite("Library index on both engines")
struct LibraryStoreContractTests {
    static let root = "/photos"
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Runs `body` with an empty index on `engine`.
    static func withStore(
        _ engine: Engine, _ body: @escaping @Sendable (any LibraryStoring) async throws -> Void
    ) async throws {
        switch engine {
        case .sqlite:
            try await body(SQLiteLibraryStore(database: try AppDatabase.inMemory()))
        case .postgres:
            let server = try requirePostgres()
            try await TestPostgres.withRunningDatabase(on: server) { database in
                try await body(PostgresLibraryStore(database: database, logger: quietLogger))
            }
        }
    }

    private func photo(
        _ path: String, title: String, caption: String? = nil, keywords: [String] = [], tags: [String] = [],
        root: String = Self.root
    ) -> LibraryPhoto {
        LibraryPhoto(
            root: root, path: path, stamp: FileStamp(size: 1000, modifiedNanoseconds: 1), format: "jpeg",
            width: 800, height: 600, title: title, caption: caption, keywords: keywords, tags: tags, indexedAt: now)
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

    private func titles(_ store: any LibraryStoring, _ query: String, roots: [String]? = nil) async throws
        -> Set<String>
    {
        Set(try await store.search(SearchQuery(query), roots: roots, page: 1, pageSize: 20).photos.map(\.title))
    }

    private func paths(_ store: any LibraryStoring, _ query: String) async throws -> [String] {
        try await store.search(SearchQuery(query), roots: nil, page: 1, pageSize: 20).photos.map(\.path)
    }

    @Test(arguments: Engine.allCases)
    func everyWordIsAPrefixAndAllMustMatch(engine: Engine) async throws {
        try await Self.withStore(engine) { store in
            try await store.save(sample)
            #expect(try await titles(store, "espr") == ["Espresso at the bar"])
            #expect(try await titles(store, "cof") == ["Espresso at the bar"], "keywords are searched")
            #expect(try await titles(store, "tabb") == ["Sleeping cat"], "captions are searched")
            #expect(try await titles(store, "PETS") == ["Sleeping cat"], "tags are searched, case does not matter")
            #expect(try await titles(store, "spa") == ["Falcon 9 launch", "Astronaut portrait"])
            #expect(try await titles(store, "space rocket") == ["Falcon 9 launch"])
            #expect(try await titles(store, "space nas") == ["Astronaut portrait"])
            #expect(try await titles(store, "space cat").isEmpty)
            #expect(try await titles(store, "falcon-9") == ["Falcon 9 launch"], "- splits words")
            // A word that starts another asks nothing more (PostgreSQL leaves it out), in either order, twice.
            for query in ["sp space", "space sp", "space space", "sp spa spac"] {
                #expect(try await titles(store, query) == ["Falcon 9 launch", "Astronaut portrait"], "\(query)")
                let page = try await store.search(SearchQuery(query), roots: nil, page: 1, pageSize: 20)
                #expect(page.total == 2, "\(query)")
            }
            #expect(try await titles(store, "sp rock") == ["Falcon 9 launch"])
        }
    }

    @Test(arguments: Engine.allCases)
    func diacriticsDoNotMatter(engine: Engine) async throws {
        try await Self.withStore(engine) { store in
            try await store.save(sample)
            #expect(try await titles(store, "cafe montreal") == ["Café in Montréal"])
            #expect(try await titles(store, "creme brulee") == ["Café in Montréal"])
            #expect(try await titles(store, "Montréal") == ["Café in Montréal"])
            #expect(try await titles(store, "CRÈME") == ["Café in Montréal"])
        }
    }

    @Test(arguments: Engine.allCases)
    func querySyntaxIsJustText(engine: Engine) async throws {
        let queries = [
            "\"", "\"cat", "cat\"", "*", "cat*", "-cat", "cat -sofa", "NEAR(cat sofa)", "cat NEAR sofa", "title:cat",
            "(cat", "cat)", "cat AND", "OR cat", "NOT cat", "^cat", "cat + sofa", "'cat'", "cat\\", "{title}: cat",
            "%", "cat;DROP TABLE libraryPhoto;--", "cat & !sofa", "cat | dog", "cat:*", "!cat", "cat <-> sofa",
            "'cat':A", "cat:B", "'", "\\'", "cat'); DROP TABLE library_photo;--",
        ]
        try await Self.withStore(engine) { store in
            try await store.save(sample)
            for query in queries {
                let result = try await store.search(SearchQuery(query), roots: nil, page: 1, pageSize: 20)
                let words = SearchQuery(query).words.map { $0.lowercased() }
                if words == ["cat"] {
                    #expect(result.photos.map(\.title) == ["Sleeping cat"], "\(query)")
                } else if words.isEmpty {
                    #expect(result == .empty, "\(query)")
                }
            }
            #expect(try await titles(store, "near") == ["Near the sea"])
            #expect(try await titles(store, "NEAR sea") == ["Near the sea"])
            #expect(try await titles(store, "sea-near") == ["Near the sea"], "- splits words, it does not exclude")
            #expect(try await titles(store, "title:sleeping").isEmpty, "not a column filter: \"title\" is a word")
            #expect(try await titles(store, "cat:A").isEmpty, "not a weight filter: \"A\" is a word")
            #expect(try await store.count() == sample.count, "the table is intact")
        }
    }

    @Test(arguments: Engine.allCases)
    func titleRanksAboveKeywordsAboveTagsAboveCaption(engine: Engine) async throws {
        try await Self.withStore(engine) { store in
            // The same number of words in each field of each photo: only where "heron" is differs.
            try await store.save([
                photo(
                    "caption.jpg", title: "quiet pond", caption: "heron morning", keywords: ["bird", "water"],
                    tags: ["lake", "park"]),
                photo(
                    "tags.jpg", title: "quiet pond", caption: "misty morning", keywords: ["bird", "water"],
                    tags: ["heron", "park"]),
                photo(
                    "title.jpg", title: "heron pond", caption: "misty morning", keywords: ["bird", "water"],
                    tags: ["lake", "park"]),
                photo(
                    "keywords.jpg", title: "quiet pond", caption: "misty morning", keywords: ["heron", "water"],
                    tags: ["lake", "park"]),
                photo(
                    "none.jpg", title: "quiet pond", caption: "misty morning", keywords: ["bird", "water"],
                    tags: ["lake", "park"]),
            ])
            #expect(try await paths(store, "heron") == ["title.jpg", "keywords.jpg", "tags.jpg", "caption.jpg"])
            #expect(try await paths(store, "her pond") == ["title.jpg", "keywords.jpg", "tags.jpg", "caption.jpg"])
        }
    }

    @Test(arguments: Engine.allCases)
    func shortTitlesRankAboveLongOnes(engine: Engine) async throws {
        try await Self.withStore(engine) { store in
            try await store.save([
                photo("1.jpg", title: "Garden party", caption: "A heron flew over"),
                photo("2.jpg", title: "Grey heron by the pond in the early morning light"),
                photo("3.jpg", title: "Heron"),
            ])
            #expect(try await paths(store, "heron") == ["3.jpg", "2.jpg", "1.jpg"])
        }
    }

    @Test(arguments: Engine.allCases)
    func pagesWithTotalAndHasMore(engine: Engine) async throws {
        try await Self.withStore(engine) { store in
            let photos = (1...45).map { photo("lake-\($0).jpg", title: "Lake view \($0)") }
            try await store.save(photos + [photo("other.jpg", title: "Mountain")])
            let first = try await store.search(SearchQuery("lake"), roots: nil, page: 1, pageSize: 20)
            #expect(first.photos.count == 20 && first.total == 45 && first.hasMore)
            let third = try await store.search(SearchQuery("lake"), roots: nil, page: 3, pageSize: 20)
            #expect(third.photos.count == 5 && !third.hasMore)
            let fourth = try await store.search(SearchQuery("lake"), roots: nil, page: 4, pageSize: 20)
            #expect(fourth.photos.isEmpty && fourth.total == 45 && !fourth.hasMore)
            var seen = Set<String>()
            for page in 1...3 {
                for found in try await store.search(SearchQuery("lake"), roots: nil, page: page, pageSize: 20).photos {
                    #expect(seen.insert(found.id).inserted, "each photo on one page only")
                }
            }
            #expect(seen.count == 45)
        }
    }

    @Test(arguments: Engine.allCases)
    func broadSearchesRankTheNewestAndListTheRestNewestFirst(engine: Engine) async throws {
        let count = LibraryPage.rankedWindow + 70
        let photos = (0..<count).map { index in
            photo("\(index).jpg", title: index % 7 == 0 ? "Snow" : "Snow in the hills", keywords: ["walk"])
        }
        try await Self.withStore(engine) { store in
            // In batches of 50, as the indexer saves: on PostgreSQL each photo is a statement, and a batch is one
            // transaction within the query deadline even in a debug build beside the whole suite.
            for batch in stride(from: 0, to: count, by: 50) {
                try await store.save(Array(photos[batch..<min(batch + 50, count)]))
            }
            var seen: [String] = []
            var page = 1
            while true {
                let result = try await store.search(SearchQuery("snow"), roots: nil, page: page, pageSize: 30)
                #expect(result.total == count)
                seen += result.photos.map(\.path)
                guard result.hasMore else { break }
                page += 1
            }
            #expect(seen.count == count)
            #expect(Set(seen).count == count, "no photo twice")
            let ranked = seen.prefix(LibraryPage.rankedWindow)
            #expect(ranked.prefix(10).allSatisfy { Int($0.dropLast(4))! % 7 == 0 }, "short titles rank first")
            #expect(Set(ranked) == Set((70..<count).map { "\($0).jpg" }), "the newest are ranked")
            #expect(seen.suffix(70) == (0..<70).reversed().map { "\($0).jpg" }, "the oldest last, newest first")
        }
    }

    @Test(arguments: Engine.allCases)
    func onlyTheGivenRootsAreSearched(engine: Engine) async throws {
        try await Self.withStore(engine) { store in
            try await store.save([photo("a.jpg", title: "Lighthouse at dusk", root: "/home/ann/Photos")])
            try await store.save([photo("b.jpg", title: "Lighthouse keeper", root: "/media/old")])
            #expect(try await titles(store, "lighthouse") == ["Lighthouse at dusk", "Lighthouse keeper"])
            #expect(try await titles(store, "lighthouse", roots: ["/home/ann/Photos"]) == ["Lighthouse at dusk"])
            #expect(try await titles(store, "lighthouse", roots: []).isEmpty)
            #expect(try await store.roots() == ["/home/ann/Photos", "/media/old"])
            #expect(try await store.count(root: "/media/old") == 1)
            #expect(try await store.count() == 2)
        }
    }

    @Test(arguments: Engine.allCases)
    func savingAgainReplacesAndRemovingForgets(engine: Engine) async throws {
        try await Self.withStore(engine) { store in
            try await store.save(sample)
            let id = try #require(try await store.photo(root: Self.root, path: "f.jpg")).id
            try await store.save([photo("f.jpg", title: "Sleeping dog", tags: ["pets"])])
            #expect(try await titles(store, "cat").isEmpty, "the old words are gone from the index")
            #expect(try await titles(store, "dog") == ["Sleeping dog"])
            #expect(try await store.photo(id: id)?.title == "Sleeping dog", "same file, same id")
            #expect(try await store.count() == sample.count)
            #expect(try await store.stamps(root: Self.root).count == sample.count)

            #expect(try await store.remove(paths: ["f.jpg", "missing.jpg"], root: Self.root) == 1)
            #expect(try await titles(store, "dog").isEmpty)
            #expect(try await store.photo(id: id) == nil)
            #expect(try await store.count() == sample.count - 1)
            #expect(try await store.stamps(root: Self.root)["f.jpg"] == nil)
        }
    }

    /// A one-word search's total is the number of photos holding a word that starts with it, in the roots
    /// searched, after saves, saves that change the words, and removals (on PostgreSQL it is read from counts
    /// kept per prefix, not counted: they must agree with the photos).
    @Test(arguments: Engine.allCases)
    func oneWordTotalsFollowEveryChange(engine: Engine) async throws {
        try await Self.withStore(engine) { store in
            let words = ["sun", "sunset", "sunrise", "sea", "seal", "café", "cafeteria", "moon", "sunny"]
            var random = SplitMix64(seed: 7)
            var photos: [String: LibraryPhoto] = [:]
            func make(_ number: Int, root: String) -> LibraryPhoto {
                let picked = (0..<(1 + random.below(3))).map { _ in words[random.below(words.count)] }
                return photo(
                    "\(number).jpg", title: picked.joined(separator: " "), tags: [words[random.below(words.count)]],
                    root: root)
            }
            let roots = [Self.root, "/media/old"]
            for round in 0..<3 {
                var batch: [String: [LibraryPhoto]] = [:]
                for number in 0..<40 {
                    let root = roots[number % 2]
                    let photo = make(round == 0 ? number : random.below(40), root: root)
                    batch[root, default: []].append(photo)
                    photos[root + "/" + photo.path] = photo
                }
                for (root, saved) in batch { try await store.update(root: root, saving: saved, removing: []) }
                let gone = (0..<5).map { _ in "\(random.below(40)).jpg" }
                _ = try await store.remove(paths: gone, root: roots[round % 2])
                for path in gone { photos[roots[round % 2] + "/" + path] = nil }

                for query in ["su", "sun", "suns", "sunset", "se", "seal", "caf", "cafe", "café", "moon", "x"] {
                    let prefix = SearchQuery.folded(query)
                    for searched in [nil, [Self.root], roots] as [[String]?] {
                        let expected = photos.values.filter { photo in
                            (searched?.contains(photo.root) ?? true)
                                && SearchQuery.words(in: photo.title + " " + photo.tags.joined(separator: " "))
                                    .contains { SearchQuery.folded($0).hasPrefix(prefix) }
                        }.count
                        let total = try await store.search(SearchQuery(query), roots: searched, page: 1, pageSize: 5)
                            .total
                        #expect(total == expected, "round \(round), \(query) in \(String(describing: searched))")
                    }
                }
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func rowsKeepEveryField(engine: Engine) async throws {
        var original = photo("2023/Lisbon/tram.jpg", title: "Tram 28", caption: "Yellow tram", keywords: ["tram"])
        original.creator = "Ann"
        original.copyright = "© 2023 Ann"
        original.capturedAt = Date(timeIntervalSince1970: 1_690_000_000.5)
        original.camera = "Fujifilm X100V"
        original.metadata = [.init("ISO", "200"), .init("Lens", "23 mm")]
        original.stamp = FileStamp(size: 5_000_000_000, modifiedNanoseconds: 1_700_000_000_123_456_789)
        let bare = photo("bare.jpg", title: "Untitled")
        try await Self.withStore(engine) { [original] store in
            try await store.save([original, bare])
            #expect(try await store.photo(id: original.id) == original)
            #expect(try await store.photo(root: Self.root, path: "bare.jpg") == bare)
            #expect(try await store.stamps(root: Self.root)[original.path] == original.stamp)
        }
    }
}
