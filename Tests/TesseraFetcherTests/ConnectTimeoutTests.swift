import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraFetcher

#if canImport(Glibc)
    import Glibc
#endif

/// A host that never completes a connection: the connect timeout, not the far-away total deadline, ends
/// the fetch. (A hang would run into the test's time limit and fail it.)
@Suite("Connect timeout")
struct ConnectTimeoutTests {
    @Test(.timeLimit(.minutes(1))) func aConnectionThatNeverCompletesEndsInTimeout() async throws {
        let listener = try FullListener()
        defer { listener.close() }
        let fetcher = ImageFetcher(
            policy: policy(trusting: "127.0.0.1:\(listener.port)") {
                $0.connectTimeout = .milliseconds(300)
                $0.totalTimeout = .seconds(600)
            })
        let error = await fetchError { try await fetcher.fetch("http://127.0.0.1:\(listener.port)/photo.jpg") }
        try await fetcher.shutdown()
        #expect(error == .timeout(host: "127.0.0.1"))
    }
}

/// A loopback port whose accept queue is full and never drained: Linux drops further SYNs, so a new
/// connection neither succeeds nor is refused, as with a host that silently drops packets.
struct FullListener {
    let port: Int
    private let descriptors: [Int32]

    init() throws {
        let server = try LoopbackSocket()
        guard listen(server.descriptor, 0) == 0 else { throw LoopbackSocket.Failure(description: "listen: \(errno)") }
        // Fill the queue: connections the listener never accepts.
        var clients: [Int32] = []
        for _ in 0..<3 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            _ = LoopbackSocket.connect(client, toPort: server.port)
            clients.append(client)
        }
        port = server.port
        descriptors = [server.descriptor] + clients
    }

    func close() {
        for descriptor in descriptors { _ = Glibc.close(descriptor) }
    }
}
