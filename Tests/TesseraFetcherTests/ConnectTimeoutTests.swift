import Foundation
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

    struct Failure: Error {
        var what: String
    }

    init() throws {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(server, $0, length) == 0 && getsockname(server, $0, &length) == 0
            }
        }
        guard server >= 0, bound, listen(server, 0) == 0 else { throw Failure(what: "listen: \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
        // Fill the queue: connections the listener never accepts.
        var clients: [Int32] = []
        for _ in 0..<3 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            clients.append(client)
        }
        descriptors = [server] + clients
    }

    func close() {
        for descriptor in descriptors { _ = Glibc.close(descriptor) }
    }
}
