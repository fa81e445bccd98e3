import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraServer
import TesseraTestSupport
import Testing

/// The web app as HTTP sees it: the shell for every page address, its files, and the headers that keep
/// text from the sources from ever running as code. (What it does in a browser: TesseraWebTests.)
@Suite("Web app over HTTP")
struct WebAppTests {
    @Test(arguments: ["/", "/search?q=fox&scope=all", "/item/pixabay/195893", "/item/wikimedia/File%3AA%20b.jpg"])
    func everyPageAddressAnswersWithTheAppShell(path: String) async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.headers[.cacheControl] == "no-cache")
            let version = try #require(Self.version(inShell: response.text))
            #expect(response.text.contains(#"<script type="module" src="/app/\#(version)/main.js"></script>"#))
            let policy = try #require(response.headers[.contentSecurityPolicy])
            #expect(policy.contains("script-src 'self'"))
            #expect(policy.contains("default-src 'self'"))
            #expect(policy.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
            #expect(response.headers[.xContentTypeOptions] == "nosniff")
        }
    }

    @Test func theShellHasNoInlineScriptOrHandler() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let html = try await client.execute(uri: "/", method: .get).text
            let scripts = html.components(separatedBy: "<script").dropFirst()
            #expect(scripts.count == 1)
            #expect(scripts.allSatisfy { $0.hasPrefix(#" type="module" src="#) })
            #expect(html.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "no onclick= and the like")
        }
    }

    /// Every module the app imports is served, so a missing or misnamed file fails here, not in a browser.
    @Test func everyImportedModuleAndLinkedFileIsServed() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            var pending = ["main.js", "style.css", "icon.svg"]
            var seen: Set<String> = []
            while let name = pending.popLast() {
                guard seen.insert(name).inserted else { continue }
                let response = try await client.execute(uri: "/app/\(name)", method: .get)
                #expect(response.status == .ok, "/app/\(name)")
                #expect(response.headers[.cacheControl] == "no-cache")
                guard name.hasSuffix(".js") else { continue }
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                pending += try Self.imports(in: response.text, staticOnly: true).map {
                    String(try Self.resolve($0, against: "/app/\(name)").dropFirst("/app/".count))
                }
            }
            #expect(seen.count >= 8, "main.js imports the app's modules")
        }
    }

    @Test func filesRevalidateByEntityTagAndUnknownOnesAre404() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let first = try await client.execute(uri: "/app/main.js", method: .get)
            let etag = try #require(first.headers[.eTag])
            let again = try await client.execute(uri: "/app/main.js", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            for path in ["/app/nope.js", "/app/../Package.swift", "/app/%2e%2e%2fPackage.swift", "/elsewhere"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
            }
        }
    }

    // MARK: - Versioned addresses

    /// The version the shell names its files under (`/app/{version}/main.js`).
    static func version(inShell html: String) -> String? {
        html.firstMatch(of: /src="\/app\/([0-9a-f]{16})\/main\.js"/).map { String($0.output.1) }
    }

    /// The relative module paths a script imports: statically (`from './x.js'`) and, unless `staticOnly`,
    /// with `import('./x.js')`.
    static func imports(in script: String, staticOnly: Bool = false) -> [String] {
        let fixed = script.matches(of: /from '(\.\.?\/[a-z\/-]+\.js)'/).map { String($0.output.1) }
        let dynamic = script.matches(of: /import\('(\.\.?\/[a-z\/-]+\.js)'\)/).map { String($0.output.1) }
        return staticOnly ? fixed : fixed + dynamic
    }

    /// `relative` as the browser resolves it against the module at `base` (an absolute path).
    static func resolve(_ relative: String, against base: String) throws -> String {
        let baseURL = try #require(URL(string: "http://tessera" + base))
        return try #require(URL(string: relative, relativeTo: baseURL)).absoluteURL.standardized.path
    }

    @Test func theShellNamesEveryFileUnderOneVersion() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let html = try await client.execute(uri: "/", method: .get).text
            let version = try #require(Self.version(inShell: html))
            let references = html.matches(of: /(?:href|src)="(\/app\/[^"]*)"/).map { String($0.output.1) }
            #expect(references.count >= 8, "the icon, the stylesheets and main.js")
            for reference in references {
                #expect(reference.hasPrefix("/app/\(version)/"), "\(reference)")
                let response = try await client.execute(uri: reference, method: .get)
                #expect(response.status == .ok, "\(reference)")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(reference)")
            }
        }
    }

    /// Every module, in the folder or a subfolder, imported statically or with `import()`, is served under
    /// the version and cached for good, so a module's relative imports keep it there.
    @Test func everyModuleIsServedUnderTheVersionAndCachedForGood() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let html = try await client.execute(uri: "/", method: .get).text
            let version = try #require(Self.version(inShell: html))
            var pending = ["/app/\(version)/main.js"]
            var seen: Set<String> = []
            while let path = pending.popLast() {
                guard seen.insert(path).inserted else { continue }
                #expect(path.hasPrefix("/app/\(version)/"), "\(path)")
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8", "\(path)")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(path)")
                #expect(response.headers[.eTag] != nil)
                pending += try Self.imports(in: response.text).map { try Self.resolve($0, against: path) }
            }
            #expect(seen.contains("/app/\(version)/galleries/gallery.js"), "a module in a subfolder")
            #expect(seen.count >= 20, "main.js reaches every module of the app")
        }
    }

    /// The search page's modules (what main.js imports statically) leave the gallery screens' out: those
    /// come with `import()` when a gallery screen opens (TesseraWebTests checks it in a browser).
    @Test func theSearchPageDoesNotImportTheGalleryScreens() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            var pending = ["/app/main.js"]
            var seen: Set<String> = []
            while let path = pending.popLast() {
                guard seen.insert(path).inserted else { continue }
                let script = try await client.execute(uri: path, method: .get).text
                pending += try Self.imports(in: script, staticOnly: true).map { try Self.resolve($0, against: path) }
            }
            #expect(seen.count >= 8)
            #expect(seen.allSatisfy { !$0.hasPrefix("/app/galleries/") }, "\(seen.sorted())")
            let main = try await client.execute(uri: "/app/main.js", method: .get).text
            #expect(Self.imports(in: main).contains("./galleries/gallery.js"))
        }
    }

    @Test func unversionedFilesInASubfolderRevalidate() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let response = try await client.execute(uri: "/app/galleries/gallery.js", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-cache")
            let etag = try #require(response.headers[.eTag])
            let again = try await client.execute(
                uri: "/app/galleries/gallery.js", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
        }
    }

    @Test func unknownVersionedPathsAre404() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let version = try #require(Self.version(inShell: try await client.execute(uri: "/", method: .get).text))
            let otherVersion = version == "0123456789abcdef" ? "fedcba9876543210" : "0123456789abcdef"
            for path in [
                "/app/\(version)/nope.js", "/app/\(version)/galleries", "/app/\(version)/galleries/nope.js",
                "/app/\(version)/", "/app/\(otherVersion)/main.js", "/app/\(version)/../Package.swift",
                "/app/\(version)/galleries/../../Package.swift", "/app/\(version)/%2e%2e%2fPackage.swift",
                "/app/\(version)/..%2f..%2fPackage.swift", "/app/\(version)/\(version)/main.js",
            ] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.headers[.cacheControl] != "public, max-age=31536000, immutable", "\(path)")
            }
        }
    }
}

/// The version: one hash of every file, so a change anywhere gives new addresses.
@Suite("Web assets")
struct WebAssetsTests {
    private func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-web-\(UUID().uuidString)")
        for (path, text) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return folder
    }

    private let app = ["index.html": #"<script type="module" src="/app/main.js"></script>"#, "main.js": "1;"]

    @Test func theSameFilesGiveTheSameVersion() throws {
        let first = try folder(app)
        let second = try folder(app)
        defer { for url in [first, second] { try? FileManager.default.removeItem(at: url) } }
        let version = try WebAssets(folder: first).version
        #expect(version.count == 16 && version.allSatisfy(\.isHexDigit))
        #expect(try WebAssets(folder: second).version == version)
    }

    @Test(arguments: [
        ["main.js": "2;"], ["galleries/gallery.js": "3;"], ["style.css": ""],
        ["index.html": #"<script type="module" src="/app/main.js" ></script>"#],
    ])
    func anyChangeGivesAnotherVersion(change: [String: String]) throws {
        let before = try folder(app)
        let after = try folder(app.merging(change) { _, new in new })
        defer { for url in [before, after] { try? FileManager.default.removeItem(at: url) } }
        #expect(try WebAssets(folder: before).version != WebAssets(folder: after).version)
    }

    /// Tools' dotfiles and files of no web type are not the app's: they neither change the version nor are served.
    @Test func dotfilesAndUnknownTypesAreLeftOut() throws {
        let plain = try folder(app)
        let extra = try folder(app.merging([".eslintrc.json": "{}", "notes.txt": "x", ".cache/a.js": "x"]) { $1 })
        defer { for url in [plain, extra] { try? FileManager.default.removeItem(at: url) } }
        #expect(try WebAssets(folder: plain).version == WebAssets(folder: extra).version)
    }

    @Test func aFileTwoFoldersDownIsRefused() throws {
        let deep = try folder(app.merging(["a/b/c.js": "1;"]) { $1 })
        defer { try? FileManager.default.removeItem(at: deep) }
        let error = #expect(throws: WebAssetsError.self) { try WebAssets(folder: deep) }
        #expect(error?.description.contains("a/b/c.js") == true)
    }

    @Test func aFolderWithoutTheShellIsRefused() throws {
        let empty = try folder(["main.js": "1;"])
        defer { try? FileManager.default.removeItem(at: empty) }
        let error = #expect(throws: WebAssetsError.self) { try WebAssets(folder: empty) }
        #expect(error?.description.contains("has no index.html") == true)
    }
}
