import AsyncHTTPClient
import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

@Suite("tessera search and serve, run as processes")
struct SearchCommandTests {
    private func standIns() -> [any StandInProvider] { StandInSet().list }

    private func withStandIns(
        _ providers: [any StandInProvider], _ body: ([String: String]) async throws -> Void
    ) async throws {
        let server = try await StandInServer.start(providers)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cli-\(UUID().uuidString)")
        var environment = server.environment
        environment["TESSERA_DATA"] = data.path
        environment["TESSERA_SOURCE_TIMEOUT"] = "10"
        do {
            try await body(environment)
        } catch {
            await server.stop()
            try? FileManager.default.removeItem(at: data)
            throw error
        }
        await server.stop()
        try? FileManager.default.removeItem(at: data)
    }

    @Test func jsonIsExactlyWhatTheAPIAnswers() async throws {
        try await withStandIns(standIns()) { environment in
            let cli = try await CLIProcess.run(["search", "snow leopard", "--json"], environment: environment)
            #expect(cli.status == 0, "\(cli.stderr)")
            let fromCLI = try JSONDecoder().decode(SearchResponse.self, from: Data(cli.stdout.utf8))
            #expect(
                fromCLI.sections.map(\.id) == [
                    .pixabay, .flickr, .openverse, .wikimedia, .movies, .music, .apps, .books,
                ])

            let server = try await ServerProcess.start([], environment: environment)
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/api/search?q=snow%20leopard")
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 10_000_000)
            try await client.shutdown()
            #expect(await server.stop() == 0)
            let fromAPI = try JSONDecoder().decode(SearchResponse.self, from: Data(String(buffer: body).utf8))
            #expect(fromCLI == fromAPI)
            #expect(cli.stdout == String(buffer: body) + "\n", "the same bytes, not just the same values")
        }
    }

    /// `--license reusable`: only what a person may reuse, in every section; the store sections hold nothing.
    @Test func onlyWhatYouMayUse() async throws {
        try await withStandIns(standIns()) { environment in
            let cli = try await CLIProcess.run(
                ["search", "fox", "--license", "reusable", "--json"], environment: environment)
            #expect(cli.status == 0, "\(cli.stderr)")
            let response = try JSONDecoder().decode(SearchResponse.self, from: Data(cli.stdout.utf8))
            let items = response.sections.flatMap(\.items)
            #expect(!items.isEmpty && items.allSatisfy { $0.license?.allowsReuse == true })
            let stores: Set<SectionID> = [.movies, .music, .apps, .books]
            let storeSections = response.sections.filter { stores.contains($0.id) }
            #expect(storeSections.allSatisfy { $0.items.isEmpty }, "in all, a section left with nothing is left out")
            #expect(!items.contains { $0.source == .itunes })
            let bad = try await CLIProcess.run(
                ["search", "fox", "--license", "reusable,mit"], environment: environment)
            #expect(bad.status == 2 && bad.stderr.contains("use reusable, commercial"), "\(bad.stderr)")
        }
    }

    @Test func tableForPeople() async throws {
        try await withStandIns(standIns()) { environment in
            let result = try await CLIProcess.run(
                ["search", "heron", "--scope", "pixabay", "--page", "2"], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("Pixabay · 45 results · page 2"))
            #expect(result.stdout.contains("    21  Heron, "))
            #expect(result.stdout.contains("pixabay:"))
            #expect(result.stdout.contains("more on page 3"))
            // Each row says what the licence allows, as the web app's tile does.
            let rows = result.stdout.split(separator: "\n").filter { $0.contains("pixabay:") }
            #expect(!rows.isEmpty && rows.allSatisfy { $0.contains("  Pixabay  ") }, "\(rows)")
            let store = try await CLIProcess.run(["search", "heron", "--scope", "movies"], environment: environment)
            let storeRows = store.stdout.split(separator: "\n").filter { $0.contains("itunes:") }
            #expect(!storeRows.isEmpty && storeRows.allSatisfy { $0.contains("  ©  ") }, "\(store.stdout)")
        }
    }

    @Test func theTableShowsEachPictureOnce() async throws {
        try await withStandIns(standIns()) { environment in
            let json = try await CLIProcess.run(["search", "red kite", "--json"], environment: environment)
            #expect(json.status == 0, "\(json.stderr)")
            let response = try JSONDecoder().decode(SearchResponse.self, from: Data(json.stdout.utf8))
            // Openverse's copies of Flickr photos that Flickr's section returns too, read from the wire fields.
            let flickr = Set(response.sections.first { $0.id == .flickr }?.items.map(\.id) ?? [])
            var copies: Set<Set<ItemID>> = []
            for copy in response.sections.first(where: { $0.id == .openverse })?.items ?? [] {
                let number = copy.pageURL?.split(whereSeparator: { !$0.isNumber }).last.map(String.init) ?? ""
                let original = ItemID(source: .flickr, nativeID: number)
                if flickr.contains(original) { copies.insert([copy.id, original]) }
            }
            #expect(!copies.isEmpty)
            let groups = try #require(response.groups)
            #expect(Set(groups.map { Set($0.items) }) == copies)

            let table = try await CLIProcess.run(["search", "red kite"], environment: environment)
            #expect(table.status == 0, "\(table.stderr)")
            let lines = table.stdout.split(separator: "\n").map(String.init)
            for group in groups {
                // The representative's row, once, then where else the picture is; its copies have no row.
                let rows = lines.indices.filter { lines[$0].hasSuffix(" \(group.representative)") }
                #expect(rows.count == 1, "\(group.representative)")
                let others = group.items.filter { $0 != group.representative }
                let services = others.map(\.source.title).joined(separator: ", ")
                if let row = rows.first { #expect(lines[row + 1] == "        also on \(services)") }
                for other in others { #expect(!lines.contains { $0.hasSuffix(" \(other)") }, "\(other) folded") }
            }
            // Openverse's section counts the copies it folded under Flickr's rows.
            let folded = groups.filter { $0.representative.source == .flickr }.count
            let count = folded == 1 ? "1 copy of a picture" : "\(folded) copies of pictures"
            #expect(folded == 0 || table.stdout.contains("  + \(count) listed under Flickr"))
        }
    }

    @Test func filtersAreValidatedAndReachEachSource() async throws {
        let providers = standIns()
        try await withStandIns(providers) { environment in
            let bad = try await CLIProcess.run(["search", "heron", "--size", "huge"], environment: environment)
            #expect(bad.status == 2)
            #expect(bad.stderr.contains("size is \"huge\"; use one of: small, medium, large."))
            #expect(providers.allSatisfy { $0.state.requestCount == 0 })

            let result = try await CLIProcess.run(
                ["search", "heron", "--scope", "pixabay", "--type", "vector", "--color", "red", "--json"],
                environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(#""filters":{"native":["color","type"],"tessera":[],"unsupported":[]}"#))
            let sent = try #require(providers[0].state.requests.last)
            #expect(sent["image_type"] == "vector" && sent["colors"] == "red")

            let unsupported = try await CLIProcess.run(
                ["search", "heron", "--scope", "flickr", "--color", "red"], environment: environment)
            #expect(unsupported.status == 1, "its only section could not be filtered")
            #expect(unsupported.stdout.contains("Flickr cannot filter by colour"))
        }
    }

    @Test func aFailedSourceIsReportedButOthersStillAnswer() async throws {
        let providers = standIns()
        providers[1].state.behavior = .invalidKey
        try await withStandIns(providers) { environment in
            let result = try await CLIProcess.run(["search", "heron"], environment: environment)
            #expect(result.status == 0)
            #expect(result.stdout.contains("! Flickr rejected the API key; check FLICKR_API_KEY"))
            #expect(result.stdout.contains("Openverse ·"))
        }
    }

    @Test func everySourceFailingExitsNonZeroWithTheReasons() async throws {
        let providers = standIns()
        for provider in providers { provider.state.behavior = .serverError }
        try await withStandIns(providers) { environment in
            let result = try await CLIProcess.run(["search", "heron", "--json"], environment: environment)
            #expect(result.status == 1)
            #expect(result.stderr.contains("every source failed"))
            #expect(result.stderr.contains("Pixabay is having trouble (HTTP 500)"))
        }
    }

    @Test(arguments: [
        (["search", ""], "Enter something to search for"),
        (["search", "   "], "Enter something to search for"),
        (["search", String(repeating: "x", count: 101)], "at most 100"),
        (["search", "owl", "--scope", "everything"], "Unknown scope"),
        (["search", "owl", "--page", "0"], "whole number from 1 to 200"),
        (["search", "owl", "--source-timeout", "soon"], "source timeout"),
    ])
    func badInputExitsWithTheReasonOnStderr(arguments: [String], reason: String) async throws {
        let result = try await CLIProcess.run(arguments, environment: ["TESSERA_DATA": "/nonexistent/never-created"])
        #expect(result.status != 0)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func serveShutsDownGracefullyOnSignal(signal: Int32) async throws {
        try await withStandIns([PixabayStandIn()]) { environment in
            let server = try await ServerProcess.start([], environment: environment)
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let response = try await client.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/api/health"), timeout: .seconds(10))
            #expect(response.status == .ok)
            try await client.shutdown()
            #expect(await server.stop(signal: signal) == 0)
        }
    }

    /// A source past its request budget: its section says so and when to retry, in the table and in the JSON,
    /// through a running server (`--server`) as locally.
    @Test func aSourcePastItsBudgetSaysWhenToRetry() async throws {
        let pixabay = PixabayStandIn()
        try await withStandIns([pixabay]) { local in
            var environment = local
            environment["TESSERA_PIXABAY_BUDGET"] = "1/h"
            let server = try await ServerProcess.start([], environment: environment)
            let remote = ["--server", "http://127.0.0.1:\(server.port)"]
            let first = try await CLIProcess.run(
                ["search", "heron", "--scope", "pixabay"] + remote, environment: local)
            #expect(first.status == 0, "\(first.stderr)")
            let table = try await CLIProcess.run(
                ["search", "egret", "--scope", "pixabay"] + remote, environment: local)
            #expect(table.status == 1, "every source asked failed")
            #expect(
                table.stdout.contains(
                    "! Tessera has sent Pixabay all the requests its terms allow for now; try again in"))
            #expect(table.stderr.contains("try again in"))
            let json = try await CLIProcess.run(
                ["search", "ibis", "--scope", "pixabay", "--json"] + remote, environment: local)
            let answer = try JSONDecoder().decode(SearchResponse.self, from: Data(json.stdout.utf8))
            #expect(answer.sections.first?.error?.code == "rate_limited")
            #expect((1...3_780).contains(answer.sections.first?.error?.retryAfter ?? 0), "\(json.stdout)")
            #expect(await server.stop() == 0)
            #expect(pixabay.state.requestCount == 1)

            // Locally the same: the command counts its own budget (one process, in memory).
            let once = try await CLIProcess.run(["search", "heron", "--scope", "pixabay"], environment: environment)
            #expect(once.status == 0, "from the response cache the server wrote")
            #expect(pixabay.state.requestCount == 1)
        }
    }

    @Test func servingBeyondLoopbackNeedsAToken() async throws {
        let result = try await CLIProcess.run(
            ["serve", "--host", "0.0.0.0", "--port", "0"], environment: ["TESSERA_DATA": "/tmp/tessera-token-test"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("TESSERA_TOKEN"))
    }
}
