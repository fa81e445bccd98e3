import TesseraCore
import Testing

@Suite struct SearchRequestTests {
    @Test func trimsAndDefaults() throws {
        let request = try SearchRequest(query: "  kittens \n", scope: nil, page: nil)
        #expect(request.query == "kittens")
        #expect(request.scope == .all)
        #expect(request.page == 1)
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func rejectsEmptyQueries(_ query: String) {
        #expect(throws: InputError.emptyQuery) { try SearchRequest(query: query, scope: "all", page: "1") }
    }

    @Test func queryLengthIsCountedInCharactersAfterTrimming() throws {
        let hundred = String(repeating: "é", count: 100)
        #expect(try SearchRequest(query: " \(hundred) ", scope: nil, page: nil).query == hundred)
        #expect(throws: InputError.queryTooLong(101)) { try SearchRequest(query: hundred + "x", scope: nil, page: nil) }
    }

    @Test(arguments: ["ALL", "everything", "itunes", "pixabay ", ""])
    func rejectsUnknownScopes(_ scope: String) {
        #expect(throws: InputError.unknownScope(scope)) { try SearchRequest(query: "a", scope: scope, page: nil) }
    }

    @Test func acceptsEverySection() throws {
        for section in SectionID.allCases {
            #expect(try SearchRequest(query: "a", scope: section.rawValue, page: nil).scope == .section(section))
        }
    }

    @Test(arguments: ["0", "-1", "201", "1.5", "two", "1e3", " 1", ""])
    func rejectsBadPages(_ page: String) {
        #expect(throws: InputError.invalidPage(page)) { try SearchRequest(query: "a", scope: nil, page: page) }
    }

    @Test func errorMessagesSayWhatIsAccepted() {
        #expect(InputError.unknownScope("x").message.contains("all, local, pixabay"))
        #expect(InputError.invalidPage("0").message.contains("1 to 200"))
    }

    @Test func itemIDsRoundTrip() {
        #expect(ItemID("wikimedia:File:A:B.jpg") == ItemID(source: .wikimedia, nativeID: "File:A:B.jpg"))
        #expect(ItemID("pixabay:") == nil)
        #expect(ItemID("unknown:1") == nil)
        #expect(ItemID(source: .flickr, nativeID: "42").description == "flickr:42")
    }

    @Test func sectionsKeepTheirFixedOrder() {
        let shuffled: [SectionID] = [.books, .local, .music, .flickr, .apps, .pixabay, .wikimedia, .movies, .openverse]
        #expect(
            shuffled.sorted() == [.local, .pixabay, .flickr, .openverse, .wikimedia, .movies, .music, .apps, .books])
    }
}
