import Foundation
import TesseraCore
import Testing

@Suite struct ImageReferenceTests {
    @Test func roundTripsEachKindInTheSignedForm() {
        let hash = String(repeating: "ab", count: 32)
        let cases: [(ImageReference, String)] = [
            (.web("https://cdn.example/a.jpg?x=1"), "https://cdn.example/a.jpg?x=1"),
            (.stored(hash: hash), "stored:" + hash),
            (
                .library(path: "/photos/a b/100%?#.jpg", version: "12-34"),
                "local:/photos/a%20b/100%25%3F%23.jpg?v=12-34"
            ),
        ]
        for (reference, string) in cases {
            #expect(reference.string == string)
            #expect(ImageReference(string) == reference)
        }
    }

    @Test func versionsLibraryFilesBySizeAndWholeSeconds() {
        let reference = ImageReference.libraryFile(
            path: "/p/cat.jpg", size: 1234, modified: Date(timeIntervalSince1970: 99.7))
        #expect(reference.string == "local:/p/cat.jpg?v=1234-99")
        #expect(reference.isOnThisMachine)
        #expect(!ImageReference.web("https://x/y.png").isOnThisMachine)
    }

    @Test func refusesMalformedLocalForms() {
        #expect(ImageReference("stored:abc") == nil, "not a SHA-256")
        #expect(ImageReference("stored:" + String(repeating: "AB", count: 32)) == nil, "uppercase hex")
        #expect(ImageReference("local:relative/path.jpg") == nil)
        #expect(ImageReference("local:/a%00b.jpg") == nil, "NUL in the path")
        #expect(ImageReference("local:%ZZ") == nil, "bad percent-encoding")
    }
}
