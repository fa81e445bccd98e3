import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization
import TesseraTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The hostile and careless clients of `tessera-bench abuse`, all from this process over loopback. Sockets
/// are non-blocking, so holding thousands takes no thread: each is checked a few times a second.
final class Attack: Sendable {
    struct Report {
        var halfOpenHeld = 0
        var reopened = 0
        var streams = 0
        var changes = 0
        var searchesServed = 0
        var searchesRefused = 0
    }

    let port: Int
    let gallery: String
    private let state = Mutex(Report())
    private let sockets = Mutex<[Int32]>([])

    init(port: Int, gallery: String) {
        self.port = port
        self.gallery = gallery
    }

    func report() -> Report { state.withLock { $0 } }

    /// Runs every attacker until cancelled.
    func hold(halfOpen: Int, streams: Int, searches: Int) async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.holdHalfOpen(halfOpen) }
            group.addTask { await self.holdStreams(streams) }
            group.addTask { await self.search(perSecond: searches) }
        }
    }

    /// Waits (up to a minute) until every connection is open and has sent what it sends.
    func waitUntilHeld(halfOpen: Int, streams: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let report = report()
            if report.halfOpenHeld >= halfOpen && report.streams >= streams { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ValidationError("the attackers could not open their connections: \(report())")
    }

    func closeAll() {
        sockets.withLock { descriptors in
            for descriptor in descriptors { close(descriptor) }
            descriptors.removeAll()
        }
    }

    // MARK: - Attackers

    /// Slow loris: a request line and one header, then nothing; what the server closes is opened again.
    private func holdHalfOpen(_ count: Int) async {
        let head = Array("GET /api/health HTTP/1.1\r\nHost: x\r\n".utf8)
        var connections = (0..<count).compactMap { _ in Connection(port: port, source: nil, pending: head) }
        while !Task.isCancelled {
            var held = 0
            var reopened = 0
            for index in connections.indices {
                if connections[index].flush(), connections[index].closedByServer() {
                    connections[index].close()
                    if let again = Connection(port: port, source: nil, pending: head) {
                        connections[index] = again
                        reopened += 1
                    }
                } else if connections[index].pending.isEmpty {
                    held += 1
                }
            }
            state.withLock {
                $0.halfOpenHeld = held
                $0.reopened += reopened
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
        sockets.withLock { $0 += connections.map(\.descriptor) }
    }

    /// Readers with a small receive buffer that never read, each from its own loopback address (127.0.0.2
    /// and up, so the per-address stream cap does not refuse them), while the gallery they watch changes
    /// ten times a second.
    private func holdStreams(_ count: Int) async {
        let request = Array("GET /api/galleries/\(gallery)/events HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        var connections = (0..<count).compactMap { index in
            Connection(port: port, source: "127.0.0.\(2 + index % 250)", pending: request, receiveBuffer: 4096)
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var change = 0
        while !Task.isCancelled {
            let open = connections.indices.filter { connections[$0].flush() }.count
            change += 1
            var rename = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/galleries/\(gallery)")
            rename.method = .PATCH
            rename.headers.add(name: "Content-Type", value: "application/json")
            rename.body = .bytes(ByteBuffer(string: #"{"name":"watched \#(change)"}"#))
            let renamed = (try? await client.execute(rename, timeout: .seconds(10)).status) == .ok
            state.withLock {
                $0.streams = open
                if renamed { $0.changes += 1 }
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        try? await client.shutdown()
        sockets.withLock { $0 += connections.map(\.descriptor) }
    }

    /// A client searching `perSecond` times a second, a new query each time.
    private func search(perSecond: Int) async {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var number = 0
        let interval = Duration.seconds(1) / perSecond
        var next = ContinuousClock.now
        while !Task.isCancelled {
            number += 1
            let url = "http://127.0.0.1:\(port)/api/search?q=greedy-\(number)&scope=all"
            let status = try? await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30)).status
            state.withLock {
                if status == .ok { $0.searchesServed += 1 }
                if status == .tooManyRequests { $0.searchesRefused += 1 }
            }
            next += interval
            try? await Task.sleep(until: next)
        }
        try? await client.shutdown()
    }
}

/// A non-blocking client socket and the bytes it still has to send.
struct Connection {
    let descriptor: Int32
    var pending: [UInt8]

    init?(port: Int, source: String?, pending: [UInt8], receiveBuffer: Int32? = nil) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        self.pending = pending
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source, !Self.bind(descriptor, source) {
            Glibc.close(descriptor)
            return nil
        }
        guard LoopbackSocket.connect(descriptor, toPort: port) == 0 || errno == EINPROGRESS else {
            Glibc.close(descriptor)
            return nil
        }
    }

    private static func bind(_ descriptor: Int32, _ source: String) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(source)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    /// Sends what is pending as far as the socket takes it; whether all of it is sent.
    mutating func flush() -> Bool {
        guard !pending.isEmpty else { return true }
        let sent = pending.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent > 0 { pending.removeFirst(sent) }
        return pending.isEmpty
    }

    /// Whether the server has ended the connection (it never sends a half-open one anything else).
    func closedByServer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    func close() {
        Glibc.close(descriptor)
    }
}
