import HTTPTypes
import HummingbirdTesting
import TesseraTestSupport
import Testing

/// A link password's length is counted as docs/openapi.yaml's `minLength` counts it, in code points, so a
/// password the document allows is taken; the cap is bcrypt's 72 bytes. Found by `scripts/fuzz-api`.
@Suite struct LinkPasswordLengthTests {
    @Test func eightCodePointsAreEnoughWhateverTheyLookLike() async throws {
        try await withAccounts(users: Links.users) { client, _ in
            let ada = GalleryOwnersAPITests.User(
                client: client, cookie: try await client.signIn("ada", "correct horse"))
            let gallery = try await ada.create("Ada's")
            // Four accented letters written as letter + combining accent: 8 code points, 4 Characters.
            let combining = String(repeating: "e\u{301}", count: 4)
            let made = try await ada.call(
                .post, "/api/galleries/\(gallery.id)/links", #"{"kind":"view","password":"\#(combining)"}"#)
            #expect(made.status == .created, "\(made.text)")
            let short = try await ada.call(
                .post, "/api/galleries/\(gallery.id)/links", #"{"kind":"view","password":"e\u0301e\u0301e\u0301"}"#)
            try Hostile.expect(short, .badRequest, "invalid_link", "6 code points")
            // 72 characters, 144 bytes: past what bcrypt reads.
            let wide = try await ada.call(
                .post, "/api/galleries/\(gallery.id)/links",
                #"{"kind":"view","password":"\#(String(repeating: "é", count: 72))"}"#)
            try Hostile.expect(wide, .badRequest, "invalid_link", "144 bytes")
        }
    }
}
