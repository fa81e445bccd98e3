import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraGalleries
import TesseraTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Clients that hold connections without using them, as an attacker on the same machine would: the server
/// must close them on its own and stay available to everyone else. Timeouts are set short here; every wait
/// is bounded generously.
@Suite("Hostile and careless clients")
struct AbuseTests {
    private static let request = "GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test(.timeLimit(.minutes(1))) func halfSentRequestsAreClosedAfterTheHeaderTimeout() async throws {
        try await withTessera([], extraEnvironment: ["TESSERA_HEADER_TIMEOUT": "2"]) { client, _ in
            let port = try #require(client.port)
            let before = ServerSockets.count(port: port)
            // Half a request each: the request line and one header, then nothing (slow loris).
            let connections = try (0..<50).map { _ in try RawConnection(port: port) }
            for connection in connections { try connection.send("GET /api/health HTTP/1.1\r\nHost: x\r\n") }
            #expect(await ServerSockets.settle(port: port) { $0 > before }, "the server holds them for now")
            for connection in connections {
                #expect(
                    try await offPool { connection.waitForClose(seconds: 15, silently: true) }, "closed, with no answer"
                )
                connection.close()
            }
            #expect(await ServerSockets.settle(port: port) { $0 <= before }, "the server's descriptors are back")

            // A client that sends a whole request is still answered.
            let answer = try await offPool { try RawHTTP.exchange(port: port, send: Self.request, responses: 1) }
            #expect(answer.map(\.status) == [200])
        }
    }

    @Test(.timeLimit(.minutes(1))) func anIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() async throws {
        try await withTessera([], extraEnvironment: ["TESSERA_IDLE_TIMEOUT": "1"]) { client, _ in
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            try connection.send(Self.request)
            #expect(try await offPool { try connection.readAnswer() }.status == 200)
            try connection.send(Self.request)
            #expect(try await offPool { try connection.readAnswer() }.status == 200, "kept alive between requests")
            #expect(try await offPool { connection.waitForClose(seconds: 15) })
        }
    }

    @Test(.timeLimit(.minutes(1))) func aMovingEventStreamOutlivesTheTimeouts() async throws {
        let environment = [
            "TESSERA_HEADER_TIMEOUT": "0.5", "TESSERA_IDLE_TIMEOUT": "0.5", "TESSERA_HEARTBEAT": "0.2",
        ]
        try await withTessera([], extraEnvironment: environment) { client, _ in
            let port = try #require(client.port)
            // Made over a raw connection: the test client's own may be closed by the short timeouts.
            let body = #"{"name":"Stream"}"#
            let created = try await offPool {
                try RawHTTP.exchange(
                    port: port,
                    send: "POST /api/galleries HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)",
                    responses: 1)
            }
            let gallery = try JSONDecoder().decode(Gallery.self, from: Data(try #require(created.first).body))
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            try connection.send("GET /api/galleries/\(gallery.id)/events HTTP/1.1\r\nHost: x\r\n\r\n")
            // Three heartbeats past both timeouts: the stream is still open.
            var text = ""
            while text.components(separatedBy: ": keep-alive").count <= 6 {
                text += try await offPool { try connection.receive() }
            }
            #expect(text.contains("event: snapshot"))
        }
    }

    @Test(.timeLimit(.minutes(1))) func pastTheCapNewConnectionsAreClosedAndOldOnesServed() async throws {
        let logs = LogCapture()
        try await withTessera([], extraEnvironment: ["TESSERA_MAX_CONNECTIONS": "3"], logger: logs.logger()) {
            client, _ in
            let port = try #require(client.port)
            // The test client may hold a connection of its own: at most three of these six get in.
            let connections = try (0..<6).map { _ in try RawConnection(port: port) }
            defer { for connection in connections { connection.close() } }
            var answered: [RawConnection] = []
            var refused = 0
            for connection in connections {
                try? connection.send(Self.request)
                if let answer = try? await offPool({ try connection.readAnswer() }), answer.status == 200 {
                    answered.append(connection)
                } else {
                    refused += 1
                }
            }
            #expect(answered.count >= 2 && answered.count <= 3)
            #expect(refused == 6 - answered.count)
            for connection in answered {
                try connection.send(Self.request)
                #expect(
                    try await offPool { try connection.readAnswer() }.status == 200,
                    "connections in progress are undisturbed")
            }
            #expect(
                logs.entries.map(\.message).filter { $0.contains("connection cap reached") }.count == 1,
                "once per burst")
        }
    }
}

/// A blocking client socket on loopback, for requests a client library would never send. Its calls block:
/// tests make them through `offPool`.
final class RawConnection: Sendable {
    let descriptor: Int32

    init(port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = try RawHTTP.connect(port: port, receiveBuffer: receiveBuffer)
    }

    /// The port this end is bound to: the server's peer port for this connection.
    var localPort: Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Everything until the server ends the connection (each read waits up to 10 seconds).
    func receiveToEnd() throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno == ECONNRESET) { return received }
            guard count > 0 else { throw RawHTTP.Failure(description: "no end after \(received.count) bytes") }
            received += buffer[0..<count]
        }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw RawHTTP.Failure(description: "send: \(errno)") }
    }

    /// What arrives next (waits up to 10 seconds); throws when the connection has ended.
    func receive() throws -> String {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw RawHTTP.Failure(description: "connection ended (\(count), errno \(errno))") }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// One whole answer (Content-Length framed).
    func readAnswer() throws -> RawHTTP.Answer {
        var received: [UInt8] = []
        while true {
            if let (answer, _) = RawHTTP.parse(received) { return answer }
            received += Array(try receive().utf8)
        }
    }

    /// Whether the server ends the connection within `seconds`; with `silently`, without sending a byte.
    func waitForClose(seconds: Int, silently: Bool = false) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno == ECONNRESET) { return true }
            if count > 0 && silently { return false }
        }
        return false
    }

    func close() {
        Glibc.close(descriptor)
    }
}

/// The server's end of its connections on `port`, as open descriptors of this process (the server runs in
/// the test process): sockets in `/proc/self/fd` whose inode `/proc/net/tcp` lists on the server's port.
enum ServerSockets {
    static func count(port: Int) -> Int {
        sockets(port: port).count
    }

    /// Whether the server still holds its end of the connection from `peerPort`.
    static func holds(port: Int, peerPort: Int) -> Bool {
        sockets(port: port).contains(hex(peerPort))
    }

    /// The remote ports (in `/proc/net/tcp`'s hex) of the server's open sockets on `port`.
    private static func sockets(port: Int) -> [String] {
        let inodes = Set(
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)"))
                    .flatMap { $0.hasPrefix("socket:[") ? String($0.dropFirst(8).dropLast()) : nil }
            })
        let portHex = ":" + hex(port)
        var found: [String] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let text = readWhole(table)
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // local address, remote address, state (0A is the listening socket), inode
                guard fields.count > 9, fields[1].hasSuffix(portHex), fields[3] != "0A" else { continue }
                if inodes.contains(String(fields[9])) { found.append(String(fields[2].suffix(4))) }
            }
        }
        return found
    }

    /// A `/proc` file read to its end (its size says 0, and one read gives only a page of it).
    private static func readWhole(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return "" }
        defer { Glibc.close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ port: Int) -> String {
        let digits = String(port, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Waits (up to 10 seconds) until the count is as `expected`.
    static func settle(port: Int, _ expected: (Int) -> Bool) async -> Bool {
        for _ in 0..<100 {
            if expected(count(port: port)) { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}
