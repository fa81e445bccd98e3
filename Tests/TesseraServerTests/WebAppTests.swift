import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
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
            #expect(response.text.contains(#"<script type="module" src="/app/main.js"></script>"#))
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
                let imports = response.text.matches(of: /from '\.\/([a-z-]+\.js)'/).map { String($0.output.1) }
                pending += imports
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
}
