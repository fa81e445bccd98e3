import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraFetcher

@Suite("Size caps, first-bytes check, time limits, upstream errors")
struct LimitTests {
    static let cap = 64 * 1024

    private func fetcher(for origin: ImageOrigin, _ change: (inout FetchPolicy) -> Void = { _ in }) -> ImageFetcher {
        ImageFetcher(
            policy: policy(trusting: origin.hostAndPort) {
                $0.maxBytes = Self.cap; change(&$0)
            })
    }

    // MARK: - Size

    @Test(arguments: [false, true])
    func aBodyAtTheCapIsFetched(chunked: Bool) async throws {
        try await withFetcher { _, origin in
            let bytes = Sample.jpeg + Sample.filler(Self.cap - Sample.jpeg.count)
            origin.serve("/a.jpg", bytes, contentType: "image/jpeg", chunked: chunked, chunkSize: 1000)
            let fetcher = fetcher(for: origin)

            let body = try await fetcher.fetch(origin.url("/a.jpg"))
            try await fetcher.shutdown()

            #expect(body.data.count == Self.cap)
        }
    }

    @Test(arguments: [false, true])
    func aBodyOverTheCapIsRefused(chunked: Bool) async throws {
        try await withFetcher { _, origin in
            origin.serve(
                "/big.jpg", Sample.jpeg + Sample.filler(Self.cap), contentType: "image/jpeg", chunked: chunked)
            let fetcher = fetcher(for: origin)

            let error = await fetchError { try await fetcher.fetch(origin.url("/big.jpg")) }
            try await fetcher.shutdown()

            #expect(error == .tooLarge(limit: Self.cap))
        }
    }

    @Test func aContentLengthOverTheCapIsRefusedBeforeTheBody() async throws {
        try await withFetcher { _, origin in
            // Claims 1 GB, sends 10 bytes, then stalls: only a check of the header can answer before the deadline.
            origin.answer(
                "/huge.jpg",
                with: .init(
                    headers: ["Content-Type": "image/jpeg"], body: Sample.jpeg, declaredLength: 1 << 30,
                    stallAfterBytes: 10, stallDuration: .seconds(600)))
            let fetcher = fetcher(for: origin) { $0.totalTimeout = .seconds(300) }

            let error = await fetchError { try await fetcher.fetch(origin.url("/huge.jpg")) }
            try await fetcher.shutdown()

            #expect(error == .tooLarge(limit: Self.cap))
        }
    }

    @Test func aChunkedBodyStopsAsSoonAsItPassesTheCap() async throws {
        try await withFetcher { _, origin in
            // Cap + 1 bytes, then a stall: collecting first and checking later would run into the deadline.
            let bytes = Sample.jpeg + Sample.filler(Self.cap + 1 - Sample.jpeg.count) + Sample.filler(1000)
            origin.stallMidBody(
                "/endless.jpg", bytes, contentType: "image/jpeg", after: Self.cap + 1, for: .seconds(600), chunked: true
            )
            let fetcher = fetcher(for: origin) { $0.totalTimeout = .seconds(300) }

            let error = await fetchError { try await fetcher.fetch(origin.url("/endless.jpg")) }
            try await fetcher.shutdown()

            #expect(error == .tooLarge(limit: Self.cap))
        }
    }

    // MARK: - First bytes

    @Test func htmlServedAsAnImageIsStoppedByThePrefixCheck() async throws {
        try await withFetcher { _, origin in
            // The page stalls after its first 64 bytes: the check must answer from the prefix alone.
            origin.stallMidBody("/a.jpg", Sample.html, contentType: "image/jpeg", after: 64, for: .seconds(600))
            let fetcher = fetcher(for: origin) { $0.totalTimeout = .seconds(300) }

            let error = await fetchError {
                try await fetcher.fetch(origin.url("/a.jpg"), validatePrefix: Sample.isJPEGOrPNG)
            }
            try await fetcher.shutdown()

            #expect(error == .notAnImage(host: "127.0.0.1", contentType: "image/jpeg"))
        }
    }

    @Test func theCheckSeesExactlyThePrefixOnceEvenInSmallPieces() async throws {
        try await withFetcher { _, origin in
            origin.serve("/a.png", Sample.png, contentType: "image/png", chunked: true, chunkSize: 3)
            let fetcher = fetcher(for: origin)
            let calls = Calls()

            let body = try await fetcher.fetch(
                origin.url("/a.png"), prefixLength: 8, validatePrefix: calls.recording(Sample.isJPEGOrPNG))
            try await fetcher.shutdown()

            #expect(body.data == Data(Sample.png))
            #expect(calls.all == [Array(Sample.png.prefix(8))])
        }
    }

    @Test func aBodyShorterThanThePrefixIsCheckedWhole() async throws {
        try await withFetcher { _, origin in
            origin.serve("/tiny.gif", Array("GIF".utf8), contentType: "image/gif")
            origin.serve("/empty.jpg", [], contentType: "image/jpeg")
            let fetcher = fetcher(for: origin)
            let calls = Calls()

            let tiny = await fetchError {
                try await fetcher.fetch(origin.url("/tiny.gif"), validatePrefix: calls.recording(Sample.isJPEGOrPNG))
            }
            let empty = await fetchError {
                try await fetcher.fetch(origin.url("/empty.jpg"), validatePrefix: calls.recording(Sample.isJPEGOrPNG))
            }
            try await fetcher.shutdown()

            #expect(tiny == .notAnImage(host: "127.0.0.1", contentType: "image/gif"))
            #expect(empty == .notAnImage(host: "127.0.0.1", contentType: "image/jpeg"))
            #expect(calls.all == [Array("GIF".utf8), []])
        }
    }

    // MARK: - Time

    @Test func aStallBeforeTheAnswerRunsIntoTheTotalTimeout() async throws {
        try await withFetcher { _, origin in
            origin.stall("/slow.jpg", for: .seconds(60))
            let fetcher = fetcher(for: origin) { $0.totalTimeout = .milliseconds(500) }

            let error = await fetchError { try await fetcher.fetch(origin.url("/slow.jpg")) }
            try await fetcher.shutdown()

            #expect(error == .timeout(host: "127.0.0.1"))
        }
    }

    @Test(arguments: [false, true])
    func aStallMidBodyRunsIntoTheTotalTimeout(chunked: Bool) async throws {
        try await withFetcher { _, origin in
            origin.stallMidBody(
                "/slow.jpg", Sample.jpeg, contentType: "image/jpeg", after: 100, for: .seconds(60), chunked: chunked)
            let fetcher = fetcher(for: origin) { $0.totalTimeout = .milliseconds(500) }

            let error = await fetchError {
                try await fetcher.fetch(origin.url("/slow.jpg"), validatePrefix: Sample.isJPEGOrPNG)
            }
            try await fetcher.shutdown()

            #expect(error == .timeout(host: "127.0.0.1"))
        }
    }

    @Test func theDeadlineCoversEveryHopTogether() async throws {
        try await withFetcher { _, origin in
            // Three hops of 400 ms each: every hop fits in the 1 s limit, all of them together do not.
            for hop in 1...3 {
                origin.answer(
                    "/r\(hop)",
                    with: .init(status: 302, headers: ["Location": "/r\(hop + 1)"], delay: .milliseconds(400)))
            }
            origin.serve("/r4", Sample.jpeg, contentType: "image/jpeg")
            let fetcher = fetcher(for: origin) { $0.totalTimeout = .seconds(1) }

            let error = await fetchError { try await fetcher.fetch(origin.url("/r1")) }
            try await fetcher.shutdown()

            #expect(error == .timeout(host: "127.0.0.1"))
            #expect(origin.hits("/r4") == 0)
        }
    }

    // MARK: - Upstream answers

    @Test(arguments: [404, 403, 500, 503])
    func anErrorStatusIsReportedWithTheHost(status: Int) async throws {
        try await withFetcher { _, origin in
            origin.status("/a.jpg", status, body: "<html>nope</html>", contentType: "text/html")
            let fetcher = fetcher(for: origin)

            let error = await fetchError { try await fetcher.fetch(origin.url("/a.jpg")) }
            try await fetcher.shutdown()

            #expect(error == .upstreamStatus(host: "127.0.0.1", status: status))
        }
    }

    @Test func aClosedPortIsAConnectionFailure() async throws {
        let origin = try await ImageOrigin.start()
        let port = origin.port
        await origin.stop()
        let fetcher = ImageFetcher(policy: FetchPolicy(allowPrivateNetworks: true))

        let error = await fetchError { try await fetcher.fetch("http://127.0.0.1:\(port)/a.jpg") }
        try await fetcher.shutdown()

        #expect(error?.code == "connection_failed")
    }
}
