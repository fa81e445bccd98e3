import Foundation
import TesseraCore
import TesseraLibrary
import Testing

@Suite("local: file references")
struct LibraryFilesTests {
    @Test func referenceEncodesThePathAndVersionsIt() {
        let modified = Date(timeIntervalSince1970: 1_700_000_123.75)
        let reference = ImageReference.libraryFile(
            path: "/photos/Summer 2023/a?b#c%d/Café.jpg", size: 4096, modified: modified)
        #expect(reference.string == "local:/photos/Summer%202023/a%3Fb%23c%25d/Caf%C3%A9.jpg?v=4096-1700000123")
    }

    @Test func resolvesAFileInsideTheLibrary() throws {
        let folder = try TempFolder()
        defer { folder.delete() }
        let file = try folder.copy(.cat, to: "Odd name ?#%/Café.jpg")
        let reference = ImageReference.libraryFile(path: file.path, size: 1, modified: Date())
        let resolved = try LibraryFiles(roots: [folder.path]).file(for: reference)
        #expect(resolved.path == file.resolvingSymlinksInPath().path)
        #expect(try LibraryFiles(roots: ["/nowhere", folder.path + "/"]).file(for: reference) == resolved)
    }

    @Test func refusesDotDotOutOfTheLibrary() throws {
        let outside = try TempFolder("outside")
        let library = try TempFolder()
        defer {
            outside.delete()
            library.delete()
        }
        let secret = try outside.copy(.cat, to: "secret.jpg")
        let sneaky = library.path + "/../" + secret.deletingLastPathComponent().lastPathComponent + "/secret.jpg"
        let reference = ImageReference.libraryFile(path: sneaky, size: 1, modified: Date())
        #expect(throws: ImageFileError.outsideLibrary(sneaky)) {
            try LibraryFiles(roots: [library.path]).file(for: reference)
        }
        // `..` that stays inside is just a path.
        try library.copy(.cat, to: "a/cat.jpg")
        let inside = ImageReference.libraryFile(path: library.path + "/b/../a/cat.jpg", size: 1, modified: Date())
        try library.write(Data(), to: "b/.keep")
        #expect(try LibraryFiles(roots: [library.path]).file(for: inside).lastPathComponent == "cat.jpg")
    }

    @Test func refusesSymlinksLeadingOut() throws {
        let outside = try TempFolder("outside")
        let library = try TempFolder()
        defer {
            outside.delete()
            library.delete()
        }
        let secret = try outside.copy(.cat, to: "secret.jpg")
        try library.link("link.jpg", to: secret.path)
        try library.link("linked-folder", to: outside.path)
        for path in ["link.jpg", "linked-folder/secret.jpg"] {
            let reference = ImageReference.libraryFile(path: library.path + "/" + path, size: 1, modified: Date())
            #expect(throws: ImageFileError.outsideLibrary(library.path + "/" + path)) {
                try LibraryFiles(roots: [library.path]).file(for: reference)
            }
        }
    }

    @Test func refusesWhatIsNotALocalFile() throws {
        let library = try TempFolder()
        defer { library.delete() }
        try library.copy(.cat, to: "cat.jpg")
        for reference in ["https://example.com/cat.jpg", "local:cat.jpg", "file://" + library.path + "/cat.jpg", ""] {
            #expect(throws: ImageFileError.notLocal(reference)) {
                try LibraryFiles(roots: [library.path]).file(for: ImageReference(parsing: reference))
            }
        }
        let missing = library.path + "/gone.jpg"
        #expect(throws: ImageFileError.missing(missing)) {
            try LibraryFiles(roots: [library.path]).file(
                for: ImageReference.libraryFile(path: missing, size: 1, modified: Date()))
        }
        try library.write(Data(), to: "folder/.keep")
        let folder = library.path + "/folder"
        #expect(throws: ImageFileError.notAFile(folder)) {
            try LibraryFiles(roots: [library.path]).file(
                for: ImageReference.libraryFile(path: folder, size: 1, modified: Date()))
        }
        let file = library.path + "/cat.jpg"
        #expect(throws: ImageFileError.outsideLibrary(file), "no library configured") {
            try LibraryFiles(roots: []).file(for: ImageReference.libraryFile(path: file, size: 1, modified: Date()))
        }
    }
}
