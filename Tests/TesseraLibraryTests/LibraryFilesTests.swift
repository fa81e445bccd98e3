import Foundation
import TesseraLibrary
import Testing

@Suite("local: file references")
struct LocalFileTests {
    @Test func referenceEncodesThePathAndVersionsIt() {
        let modified = Date(timeIntervalSince1970: 1_700_000_123.75)
        let reference = LocalFile.reference(
            path: "/photos/Summer 2023/a?b#c%d/Café.jpg", size: 4096, modified: modified)
        #expect(reference == "local:/photos/Summer%202023/a%3Fb%23c%25d/Caf%C3%A9.jpg?v=4096-1700000123")
    }

    @Test func resolvesAFileInsideTheLibrary() throws {
        let folder = try TempFolder()
        defer { folder.delete() }
        let file = try folder.copy(.cat, to: "Odd name ?#%/Café.jpg")
        let reference = LocalFile.reference(path: file.path, size: 1, modified: Date())
        let resolved = try LocalFile.resolve(reference, roots: [folder.path])
        #expect(resolved.path == file.resolvingSymlinksInPath().path)
        #expect(try LocalFile.resolve(reference, roots: ["/nowhere", folder.path + "/"]) == resolved)
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
        let reference = LocalFile.reference(path: sneaky, size: 1, modified: Date())
        #expect(throws: LocalFileError.outsideLibrary(sneaky)) {
            try LocalFile.resolve(reference, roots: [library.path])
        }
        // `..` that stays inside is just a path.
        try library.copy(.cat, to: "a/cat.jpg")
        let inside = LocalFile.reference(path: library.path + "/b/../a/cat.jpg", size: 1, modified: Date())
        try library.write(Data(), to: "b/.keep")
        #expect(try LocalFile.resolve(inside, roots: [library.path]).lastPathComponent == "cat.jpg")
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
            let reference = LocalFile.reference(path: library.path + "/" + path, size: 1, modified: Date())
            #expect(throws: LocalFileError.outsideLibrary(library.path + "/" + path)) {
                try LocalFile.resolve(reference, roots: [library.path])
            }
        }
    }

    @Test func refusesWhatIsNotALocalFile() throws {
        let library = try TempFolder()
        defer { library.delete() }
        try library.copy(.cat, to: "cat.jpg")
        for reference in ["https://example.com/cat.jpg", "local:cat.jpg", "file://" + library.path + "/cat.jpg", ""] {
            #expect(throws: LocalFileError.notLocal(reference)) {
                try LocalFile.resolve(reference, roots: [library.path])
            }
        }
        let missing = library.path + "/gone.jpg"
        #expect(throws: LocalFileError.missing(missing)) {
            try LocalFile.resolve(LocalFile.reference(path: missing, size: 1, modified: Date()), roots: [library.path])
        }
        try library.write(Data(), to: "folder/.keep")
        let folder = library.path + "/folder"
        #expect(throws: LocalFileError.notAFile(folder)) {
            try LocalFile.resolve(LocalFile.reference(path: folder, size: 1, modified: Date()), roots: [library.path])
        }
        let file = library.path + "/cat.jpg"
        #expect(throws: LocalFileError.outsideLibrary(file), "no library configured") {
            try LocalFile.resolve(LocalFile.reference(path: file, size: 1, modified: Date()), roots: [])
        }
    }
}
