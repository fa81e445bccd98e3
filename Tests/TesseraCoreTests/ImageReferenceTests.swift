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

    @Test func saysWhyALocalFormNamesNoFile() {
        #expect(throws: ImageFileError.noStoredCopy("stored:abc")) { try ImageReference(parsing: "stored:abc") }
        #expect(throws: ImageFileError.notLocal("local:a.jpg")) { try ImageReference(parsing: "local:a.jpg") }
        #expect(throws: Never.self) { try ImageReference(parsing: "ftp://x/y.png") }
    }

    @Test func filesByKindAsksTheOneThatServesTheReference() throws {
        struct Folder: LocalImageFiles {
            let path: String
            func file(for reference: ImageReference) throws(ImageFileError) -> URL {
                URL(fileURLWithPath: path + "/" + String(reference.string.prefix(6)))
            }
        }
        let files = ImageFilesByKind(library: Folder(path: "/library"), stored: Folder(path: "/stored"))
        let hash = String(repeating: "0", count: 64)
        #expect(try files.file(for: .library(path: "/p.jpg", version: nil)).path == "/library/local:")
        #expect(try files.file(for: .stored(hash: hash)).path == "/stored/stored")
        #expect(throws: ImageFileError.notLocal("https://x/y.png")) { try files.file(for: .web("https://x/y.png")) }
    }
}
