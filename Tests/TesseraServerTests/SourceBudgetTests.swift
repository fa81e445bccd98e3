import Foundation
import HTTPTypes
import HummingbirdTesting
import TesseraCore
import TesseraTestSupport
import Testing

/// Providers' limits over HTTP, against the real app and stand-ins that count what reaches them: a burst past a
/// budget never reaches the service, the rest is answered from the cache or fails with `rate_limited` and when
/// to retry; a 429 pauses the source; on PostgreSQL two servers share one budget. Small budgets come in through
/// `TESSERA_<SOURCE>_BUDGET`, as an operator would set them.
@Suite("Source request budgets")
struct SourceBudgetTests {
    static func search(_ client: any TestClientProtocol, _ query: String, scope: String = "pixabay") async throws
        -> SectionResult
    {
        let response = try await client.execute(uri: "/api/search?q=\(encoded(query))&scope=\(scope)", method: .get)
        #expect(response.status == .ok, "\(response.text)")
        return try #require(try response.json(SearchResponse.self).sections.first)
    }

    @Test(.timeLimit(.minutes(2))) func aBurstPastTheBudgetNeverReachesTheService() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list, extraEnvironment: ["TESSERA_PIXABAY_BUDGET": "3/h"]) { client, _ in
            let before = try await MetricsTests.scrape(client)
            let sections = try await withThrowingTaskGroup(of: SectionResult.self) { group in
                for index in 0..<8 { group.addTask { try await Self.search(client, "burst \(index)") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(standIns.pixabay.state.requestCount == 3, "the service never sees more than its budget")
            let answered = sections.filter { $0.error == nil }
            #expect(answered.count == 3)
            #expect(answered.allSatisfy { $0.items.count == 20 })
            let refused = sections.filter { $0.error != nil }
            #expect(refused.count == 5)
            for section in refused {
                #expect(section.error?.code == "rate_limited")
                let wait = try #require(section.error?.retryAfter, "says when to retry")
                #expect((1...3_600 + 180).contains(wait), "within the hour and one slot: \(wait)")
                #expect(section.error?.message.contains("Pixabay") == true)
                #expect(section.items.isEmpty)
            }

            // Every search again: the three the service answered come from the response cache, with nothing sent.
            var cachedAnswers = 0
            for index in 0..<8 {
                let again = try await Self.search(client, "burst \(index)")
                if again.error == nil { cachedAnswers += 1 }
            }
            #expect(cachedAnswers == 3, "the three searches the service answered are answered again from the cache")
            #expect(standIns.pixabay.state.requestCount == 3)

            // Another source's budget is its own.
            #expect(try await Self.search(client, "burst 0", scope: "openverse").error == nil)

            let after = try await MetricsTests.scrape(client)
            let refusals = ["source": "pixabay", "reason": "budget"]
            #expect(after.delta(before, "tessera_source_budget_refusals_total", refusals) == 10)
            #expect(
                after.delta(before, "tessera_source_errors_total", ["source": "pixabay", "code": "rate_limited"]) == 10)
            #expect(
                after.delta(before, "tessera_source_http_requests_total", ["source": "pixabay", "status": "200"]) == 3)
        }
    }

    @Test(.timeLimit(.minutes(2))) func aRefusedSearchIsAnsweredFromAnExpiredCacheEntryWhileOneIsKept() async throws {
        let standIns = StandInSet()
        let clock = TestClock()
        try await withTessera(standIns.list, extraEnvironment: ["TESSERA_PIXABAY_BUDGET": "1/h"], now: clock.now) {
            client, _ in
            let before = try await MetricsTests.scrape(client)
            let fresh = try await Self.search(client, "heron")
            #expect(fresh.items.count == 20)
            // Past Pixabay's 24 hours the answer has expired; another search spends the hour's budget.
            clock.advance(by: 24.25 * 3_600)
            #expect(try await Self.search(client, "ibis").items.count == 20)
            // Refused now, the expired answer is served: an old answer beats none.
            let stale = try await Self.search(client, "heron")
            #expect(stale.error == nil)
            #expect(stale.items.map(\.id) == fresh.items.map(\.id))
            let uncached = try await Self.search(client, "egret")
            #expect(uncached.error?.code == "rate_limited", "nothing cached for it")
            #expect(standIns.pixabay.state.requestCount == 2)
            // Two cache periods on, the answer is too old to serve; the budget has room again by then.
            clock.advance(by: 24.25 * 3_600)
            #expect(try await Self.search(client, "heron").error == nil)
            #expect(standIns.pixabay.state.requestCount == 3, "asked afresh, not served from the old answer")
            let after = try await MetricsTests.scrape(client)
            #expect(after.delta(before, "tessera_source_stale_answers_total", ["source": "pixabay"]) == 1)
            let refusals = ["source": "pixabay", "reason": "budget"]
            #expect(after.delta(before, "tessera_source_budget_refusals_total", refusals) == 2)
        }
    }

    @Test(.timeLimit(.minutes(2))) func aRefusedItemIs429WithRetryAfter() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list, extraEnvironment: ["TESSERA_PIXABAY_BUDGET": "1/d"]) { client, _ in
            let first = try await Self.search(client, "heron")
            let item = try #require(first.items.first)
            // Items just shown come from memory; one never shown must be asked of the service.
            let unseen = try await client.execute(uri: "/api/items/pixabay/987654", method: .get)
            #expect(unseen.status == .tooManyRequests)
            #expect(try unseen.apiError().code == "rate_limited")
            let wait = try #require(unseen.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...86_400 + 4_320).contains(wait))
            #expect(standIns.pixabay.state.requestCount == 1)
            let shown = try await client.execute(uri: "/api/items/pixabay/\(item.id.nativeID)", method: .get)
            #expect(shown.status == .ok)
        }
    }

    @Test(.timeLimit(.minutes(2))) func a429PausesTheSourceUntilItsRetryAfter() async throws {
        let standIns = StandInSet()
        standIns.pixabay.state.behavior = .rateLimited(retryAfter: 3_600)
        try await withTessera(standIns.list) { client, _ in
            let before = try await MetricsTests.scrape(client)
            let limited = try await Self.search(client, "owl")
            #expect(limited.error?.code == "rate_limited")
            #expect(limited.error?.retryAfter == 3_600)
            #expect(standIns.pixabay.state.requestCount == 1)

            // The service would answer now, but it asked for an hour: nothing is sent until then.
            standIns.pixabay.state.behavior = .normal
            for query in ["owl", "lark", "wren"] {
                let paused = try await Self.search(client, query)
                #expect(paused.error?.code == "rate_limited")
                let wait = try #require(paused.error?.retryAfter)
                #expect((3_000...3_600).contains(wait), "what is left of the hour: \(wait)")
            }
            let item = try await client.execute(uri: "/api/items/pixabay/12345", method: .get)
            #expect(item.status == .tooManyRequests)
            #expect(standIns.pixabay.state.requestCount == 1, "no call while paused")
            // Only that source is paused.
            #expect(try await Self.search(client, "owl", scope: "flickr").items.count == 20)

            let after = try await MetricsTests.scrape(client)
            #expect(after.delta(before, "tessera_source_pauses_total", ["source": "pixabay"]) == 1)
            let refusals = ["source": "pixabay", "reason": "paused"]
            #expect(after.delta(before, "tessera_source_budget_refusals_total", refusals) == 4)
        }
    }

    @Test(.timeLimit(.minutes(2))) func aRetryAfterDateIsReadAndThePauseEnds() async throws {
        let standIns = StandInSet()
        standIns.flickr.state.retryAfterAsDate = true
        standIns.flickr.state.behavior = .rateLimited(retryAfter: 7_200)
        standIns.wikimedia.state.behavior = .rateLimited(retryAfter: 1)
        try await withTessera(standIns.list) { client, _ in
            _ = try await Self.search(client, "moth", scope: "flickr")
            standIns.flickr.state.behavior = .normal
            let paused = try await Self.search(client, "moth", scope: "flickr")
            let wait = try #require(paused.error?.retryAfter)
            #expect((7_000...7_201).contains(wait), "from the date two hours ahead: \(wait)")
            #expect(standIns.flickr.state.requestCount == 1)

            // A pause of a second: searches meanwhile send nothing, and once it is over the source is asked again.
            _ = try await Self.search(client, "moth", scope: "wikimedia")
            standIns.wikimedia.state.behavior = .normal
            var answer = try await Self.search(client, "moth", scope: "wikimedia")
            while answer.error != nil {
                #expect(answer.error?.code == "rate_limited")
                try await Task.sleep(for: .milliseconds(250))
                answer = try await Self.search(client, "moth", scope: "wikimedia")
            }
            #expect(answer.items.count == 20)
            #expect(standIns.wikimedia.state.requestCount == 2, "the 429 and the one after the pause")
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: [Engine.postgres])
    func serversOnOneDatabaseShareTheBudget(engine: Engine) async throws {
        try await engine.withEnvironment { database in
            let standIns = StandInSet()
            let server = try await StandInServer.start(standIns.list)
            var environment = database
            environment["TESSERA_PIXABAY_BUDGET"] = "4/h"
            let shared = environment
            try await withTessera([], extraEnvironment: shared, standIns: server) { first, _ in
                try await withTessera([], extraEnvironment: shared, standIns: server) { second, _ in
                    let sections = try await withThrowingTaskGroup(of: SectionResult.self) { group in
                        for index in 0..<12 {
                            let client = index.isMultiple(of: 2) ? first : second
                            group.addTask { try await Self.search(client, "shared \(index)") }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(standIns.pixabay.state.requestCount == 4, "both servers together stay within the budget")
                    #expect(sections.filter { $0.error == nil }.count == 4)
                    #expect(sections.filter { $0.error?.code == "rate_limited" }.count == 8)

                    // A pause one server was asked for holds for the other too.
                    standIns.flickr.state.behavior = .rateLimited(retryAfter: 3_600)
                    #expect(try await Self.search(first, "pause", scope: "flickr").error?.code == "rate_limited")
                    standIns.flickr.state.behavior = .normal
                    let other = try await Self.search(second, "pause", scope: "flickr")
                    #expect(other.error?.code == "rate_limited")
                    #expect((3_000...3_600).contains(other.error?.retryAfter ?? 0))
                    #expect(standIns.flickr.state.requestCount == 1)
                }
            }
            await server.stop()
        }
    }
}
