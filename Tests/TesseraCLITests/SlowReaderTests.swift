import AsyncHTTPClient
import Foundation
import TesseraGalleries
import TesseraTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Large answers read at about 1 KB/s (docs/limits.md): `tessera serve` runs as a process, so its resident
/// memory is its own, and must not grow by the size of what a slow client is sent, while other requests
/// are answered. The bounds are generous; what they catch is an answer held whole in memory.
@Suite("Slow readers of large answers, against tessera serve as a process")
struct SlowReaderTests {
    @Test(.timeLimit(.minutes(4))) func aSlowExportOrOriginalReaderIsServedWithBackpressure() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-slow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let environment = ["TESSERA_DATA": data.path, "TESSERA_IMPORT_RATE": "off"]
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await run(client, data: data, environment: environment)
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    func run(_ client: HTTPClient, data: URL, environment: [String: String]) async throws {
        // Given a gallery of four copies of a noise image that does not compress (16 MB each).
        let image = NoisePNG.make(width: 2300, height: 2300)
        let (gallery, original) = try await Self.withServer(environment) { server in
            let api = TesseraAPI(client: client, port: server.port)
            let gallery = try await api.json(
                Gallery.self, api.send("POST", "/api/galleries", json: #"{"name":"Noise"}"#), 201)
            var original = ""
            for index in 0..<4 {
                let path = "/api/galleries/\(gallery.id)/items"
                let added = try await api.json(
                    GalleryItem.self, api.upload(path, image, fileName: "noise-\(index).png", index: nil), 201)
                original = added.image.original.url
            }
            return (gallery, original)
        }
        // Started again, so what the uploads left in the heap cannot hide what the export takes; measured once
        // the server has hashed the four copies in the background (uploads that do not check make no hash),
        // which decodes each and would count as the export's growth.
        try await Self.withServer(environment) { server in
            let deadline = ContinuousClock.now + .seconds(60)
            while try await MigrateCommandTests.hashedItems(inSQLite: data) < 4, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(try await MigrateCommandTests.hashedItems(inSQLite: data) == 4)
            try await readSlowly(server, TesseraAPI(client: client, port: server.port), gallery, original, image, data)
        }
    }

    /// Runs `body` against a `tessera serve` that is stopped after it, or killed if it throws.
    static func withServer<T>(_ environment: [String: String], _ body: (ServerProcess) async throws -> T)
        async throws -> T
    {
        let server = try await ServerProcess.start([], environment: environment)
        let result: T
        do {
            result = try await body(server)
        } catch {
            _ = await server.stop(signal: SIGKILL)
            throw error
        }
        #expect(await server.stop() == 0)
        return result
    }

    func readSlowly(
        _ server: ServerProcess, _ api: TesseraAPI, _ gallery: Gallery, _ original: String, _ image: [UInt8],
        _ data: URL
    ) async throws {
        let pid = server.child.process.processIdentifier
        let exportSize = 4 * image.count

        // When a client reads the export at 1 KB/s for eight seconds (the server warmed up first: the first
        // health check starts its readiness thread, which is no part of the answer's cost).
        #expect(try await api.send("GET", "/api/health").status == 200)
        let before = try Self.residentBytes(pid)
        let slow = try SlowSocket(port: server.port)
        defer { slow.close() }
        try slow.send("GET /api/galleries/\(gallery.id)/export HTTP/1.1\r\nHost: x\r\n\r\n")
        var received: [UInt8] = []
        var peak = before
        for _ in 0..<8 {
            received += slow.take(upTo: 1024)
            // Then another client is answered meanwhile.
            #expect(try await api.send("GET", "/api/health").status == 200)
            try await Task.sleep(for: .seconds(1))
            peak = max(peak, try Self.residentBytes(pid))
        }
        #expect(received.count < 64 * 1024, "the reader took only what it read")
        // Buffering the answer grows it by more than the export (66 MB for this 64 MB one, seen); streaming
        // with backpressure by a few MB, plus what the allocator keeps on a busy machine.
        #expect(
            peak - before < exportSize / 4,
            "resident memory grew \(peak - before) bytes while \(exportSize) bytes were being sent")

        // And read to the end at full speed, the ZIP is whole: every image, byte for byte.
        received += try await slow.takeToEnd(timeout: .seconds(60))
        let (status, body) = try Self.dechunked(received)
        #expect(status == 200)
        let zip = data.appendingPathExtension("zip")
        defer { try? FileManager.default.removeItem(at: zip) }
        try Data(body).write(to: zip)
        let check = """
            import hashlib, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            print(' '.join(hashlib.sha256(z.read(n)).hexdigest() for n in z.namelist() if n.startswith('images/')))
            """
        let digests = try await Self.python(check, zip.path).split(separator: " ").map(String.init)
        #expect(digests == Array(repeating: GalleryImageFiles.hash(of: Data(image)), count: 4))

        // The same for eight clients reading the original at 1 KB/s: they share the one copy in memory (the
        // image proxy holds it, and one copy more for a moment while making it), not eight.
        let path = String(original[try #require(original.range(of: "/img/")).lowerBound...])
        let beforeOriginals = try Self.residentBytes(pid)
        let readers = try (0..<8).map { _ in try SlowSocket(port: server.port) }
        for reader in readers { try reader.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n") }
        var peakOriginals = beforeOriginals
        for _ in 0..<5 {
            for reader in readers { _ = reader.take(upTo: 1024) }
            #expect(try await api.send("GET", "/api/health").status == 200)
            try await Task.sleep(for: .seconds(1))
            peakOriginals = max(peakOriginals, try Self.residentBytes(pid))
        }
        #expect(
            peakOriginals - beforeOriginals < 4 * image.count,
            "grew \(peakOriginals - beforeOriginals) bytes for 8 readers of \(image.count) bytes")
        for reader in readers { reader.close() }
    }

    /// `VmRSS` of process `pid`, in bytes.
    static func residentBytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ")[1])) * 1024
    }

    /// The status and de-chunked body of a `Transfer-Encoding: chunked` answer.
    static func dechunked(_ bytes: [UInt8]) throws -> (Int, [UInt8]) {
        let crlf: [UInt8] = [13, 10]
        func line(from start: Int) throws -> (String, Int) {
            var end = start
            while end + 1 < bytes.count && !(bytes[end] == 13 && bytes[end + 1] == 10) { end += 1 }
            guard end + 1 < bytes.count else { throw Truncated() }
            return (String(decoding: bytes[start..<end], as: UTF8.self), end + crlf.count)
        }
        var (text, next) = try line(from: 0)
        let status = Int(text.split(separator: " ")[1]) ?? 0
        repeat { (text, next) = try line(from: next) } while !text.isEmpty
        var body: [UInt8] = []
        while true {
            (text, next) = try line(from: next)
            guard let size = Int(text, radix: 16), next + size + 2 <= bytes.count else { throw Truncated() }
            if size == 0 { return (status, body) }
            body += bytes[next..<next + size]
            next += size + 2
        }
    }

    struct Truncated: Error {}

    static func python(_ script: String, _ argument: String) async throws -> String {
        let result = try await ToolProcess.run("/usr/bin/python3", ["-c", script, argument])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A client socket that never blocks a thread: reads take what has arrived, so a test can read slowly.
final class SlowSocket: Sendable {
    let descriptor: Int32

    /// Connected to `port` on loopback with a small receive buffer, so the server soon has to wait.
    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size: Int32 = 4096
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        guard LoopbackSocket.connect(descriptor, toPort: port) == 0 else {
            Glibc.close(descriptor)
            throw Failure(description: "connect: \(errno)")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw Failure(description: "send: \(errno)") }
    }

    /// What has arrived, up to `limit` bytes, without waiting; empty at the end too.
    func take(upTo limit: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    /// Everything until the server ends the answer: its zero-size last chunk, or the connection's end.
    func takeToEnd(timeout: Duration) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        let end = Array("\r\n0\r\n\r\n".utf8)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                received += buffer[0..<count]
                if received.count >= end.count && Array(received.suffix(end.count)) == end { return received }
            } else if count == 0 {
                return received
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try await Task.sleep(for: .milliseconds(2))
            } else {
                throw Failure(description: "recv: \(errno)")
            }
        }
        throw Failure(description: "no end within \(timeout) after \(received.count) bytes")
    }

    func close() {
        Glibc.close(descriptor)
    }
}

/// A PNG of random pixels, which compresses not at all: its image data is written in stored (uncompressed)
/// deflate blocks, so making it costs no compressor.
enum NoisePNG {
    static func make(width: Int, height: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        var state = seed
        var raw = [UInt8](repeating: 0, count: height * (1 + 3 * width))
        raw.withUnsafeMutableBytes { bytes in
            for offset in stride(from: 0, to: bytes.count - 8, by: 8) {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                bytes.storeBytes(of: state, toByteOffset: offset, as: UInt64.self)
            }
        }
        for row in 0..<height { raw[row * (1 + 3 * width)] = 0 }  // filter: none
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        while offset < raw.count {
            let count = min(65_535, raw.count - offset)
            let last: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<offset + count]
            offset += count
        }
        zlib += bigEndian(adler32(raw))
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", zlib)
        png += chunk("IEND", [])
        return png
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) }
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        bytes.withUnsafeBufferPointer { buffer in
            table.withUnsafeBufferPointer { table in
                for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            }
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var (a, b): (UInt32, UInt32) = (1, 0)
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                // 5,552 bytes at most between reductions keeps the sums within 32 bits.
                for byte in buffer[index..<min(index + 5552, buffer.count)] {
                    a &+= UInt32(byte)
                    b &+= a
                }
                a %= 65_521
                b %= 65_521
                index += 5552
            }
        }
        return b << 16 | a
    }
}
