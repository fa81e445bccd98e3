import Foundation
import PostgresNIO
import TesseraLibrary
import TesseraTestSupport
import Testing

@testable import TesseraPostgres

/// The newest matches of a one-word search (`PostgresLibraryStore.oneWord`), with a window of 10 so a hundred
/// photos take each way: walking back from the newest photo when the word is everywhere, and through the index
/// when it is not, or when the walk meets too few (the word only in the oldest folders).
@Suite("PostgreSQL one-word searches")
struct LibraryOneWordTests {
    static let root = "/photos"

    func photo(_ index: Int, _ title: String) -> LibraryPhoto {
        LibraryPhoto(
            root: Self.root, path: "\(index).jpg", stamp: FileStamp(size: 1, modifiedNanoseconds: 1), format: "jpeg",
            width: 800, height: 600, title: title, indexedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test func theNewestMatchesEitherWay() async throws {
        try await TestPostgres.withRunningDatabase(on: try requirePostgres()) { database in
            let store = PostgresLibraryStore(database: database, logger: quietLogger)
            // "snow" on every photo, "fjord" on the oldest half, "tram" on every seventh.
            try await store.save(
                (0..<100).map { index in
                    photo(index, "Snow \(index < 50 ? "fjord" : "street") \(index % 7 == 0 ? "tram" : "walk")")
                })
            for (word, total) in [("snow", 100), ("fjord", 50), ("tram", 15), ("nothing", 0)] {
                let filter = PostgresLibraryStore.Filter(
                    tsQuery: "'\(word)':*", every: false, roots: [Self.root], narrowing: LibraryFilter(.none))
                let (counted, window) = try await database.withConnection { connection in
                    try await PostgresLibraryStore.oneWord(
                        word, filter, window: 10, ranking: RankedPage(offset: 0, limit: 10), connection)
                }
                let expected = try await database.withConnection { connection in
                    var seqs: [Int64] = []
                    for try await seq in try await connection.query(
                        "SELECT seq FROM library_photo WHERE title ILIKE \("%" + word + "%") ORDER BY seq DESC LIMIT 10",
                        logger: .quiet
                    ).decode(Int64.self) {
                        seqs.append(seq)
                    }
                    return seqs
                }
                #expect(counted == total, "\(word)")
                #expect(window.found == expected.count && window.cutoff == expected.last, "\(word)")
                #expect(Set(window.page) == Set(expected) && window.page.count == expected.count, "\(word)")
            }
        }
    }
}
