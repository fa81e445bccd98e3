import AsyncHTTPClient
import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

@testable import TesseraSources

/// A service that refuses the connection fails its section as `unreachable` at once, not after a timeout.
@Suite("A source nobody answers for")
struct UnreachableSourceTests {
    @Test(.timeLimit(.minutes(1)))
    func aRefusedConnectionIsUnreachableWithoutWaitingForATimeout() async throws {
        // Given a loopback port that is bound but not listening (connecting to it is refused), and timeouts far
        // past the test's limit: retrying the connection until a timeout would fail the test, or answer `timeout`.
        let closed = try LoopbackSocket()
        defer { closed.close() }
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(
                timeout: .init(connect: .minutes(10), read: .minutes(10)), connectionPool: .sources))
        let http = SourceHTTP(client: client, cache: nil, requestTimeout: .seconds(300))
        let openverse = OpenverseClient(
            endpoint: Endpoint(base: URL(string: "http://127.0.0.1:\(closed.port)/openverse/v1/")!), http: http)

        // When
        let error = await sourceError { try await openverse.search("dog", in: .openverse, page: 1) }
        try await client.shutdown()

        // Then
        #expect(error?.code == "unreachable", "\(String(describing: error))")
    }
}
