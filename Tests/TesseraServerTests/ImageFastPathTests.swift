import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraCore
import TesseraTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Cached images are answered in the connection's pipeline, ahead of the router (ImageHitHandler). These
/// check that such answers are indistinguishable from the router's, keep the token rule, and keep
/// HTTP/1.1's response order.
@Suite("Image fast path")
struct ImageFastPathTests {
    private func thumbnails(_ client: any TestClientProtocol, headers: HTTPFields = [:]) async throws -> [String] {
        let body = try await client.execute(uri: "/api/search?q=fox&scope=pixabay", method: .get, headers: headers)
            .json(SearchResponse.self)
        return try #require(body.sections.first?.items.compactMap { $0.thumbnail?.url })
    }

    @Test func aCachedAnswerCarriesTheSameHeadersAsTheFirst() async throws {
        try await withTessera(StandInSet().list) { client, standIns in
            let url = try #require(try await thumbnails(client).first)
            let first = try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"])
            let second = try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"])
            #expect(first.status == .ok)
            #expect(second.status == .ok)
            #expect(second.body == first.body)
            for name in [
                HTTPField.Name.contentType, .contentLength, .eTag, .cacheControl, .vary,
                .xContentTypeOptions, .contentSecurityPolicy, .server,
            ] {
                #expect(second.headers[name] != nil, "\(name)")
                #expect(second.headers[name] == first.headers[name], "\(name)")
            }
            #expect(second.headers[.date] != nil)
            #expect(
                Set(second.headers.map(\.name)) == Set(first.headers.map(\.name)),
                "no header more or fewer than the router's answer")

            let head = try await client.execute(uri: url, method: .head, headers: [.accept: "image/jpeg"])
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == first.headers[.contentLength])

            let etag = try #require(first.headers[.eTag])
            let revalidated = try await client.execute(
                uri: url, method: .get, headers: [.accept: "image/jpeg", .ifNoneMatch: etag])
            #expect(revalidated.status == .notModified)
            #expect(revalidated.body.readableBytes == 0)
            #expect(revalidated.headers[.eTag] == etag)
            #expect(standIns.totalImageRequests == 1, "every answer after the first came from the cache")

            // The cached JPEG is not what a WebP-accepting client gets: it takes its own route.
            let webP = try await client.execute(uri: url, method: .get, headers: [.accept: "image/webp"])
            #expect(webP.status == .ok)
            #expect(webP.headers[.eTag] != etag)
        }
    }

    @Test func aCachedImageStillNeedsTheToken() async throws {
        let token = "fast-path-token"
        try await withTessera(StandInSet().list, extraEnvironment: ["TESSERA_TOKEN": token]) { client, _ in
            let bearer: HTTPFields = [.authorization: "Bearer \(token)", .accept: "image/jpeg"]
            let url = try #require(try await thumbnails(client, headers: bearer).first)
            #expect(try await client.execute(uri: url, method: .get, headers: bearer).status == .ok)
            #expect(try await client.execute(uri: url, method: .get, headers: bearer).status == .ok, "now cached")

            let anonymous = try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"])
            #expect(anonymous.status == .unauthorized)
            #expect(try anonymous.apiError().code == "unauthorized")
            let wrong = try await client.execute(
                uri: url, method: .get, headers: [.authorization: "Bearer nope", .accept: "image/jpeg"])
            #expect(wrong.status == .unauthorized)
            let cookie = try await client.execute(
                uri: url, method: .get, headers: [.cookie: "theme=dark; tessera_token=\(token)"])
            #expect(cookie.status == .ok)
            #expect(cookie.body.readableBytes > 100)
        }
    }

    /// Two requests sent back to back on one connection: a slow miss, then a cached hit. The hit must not
    /// overtake the miss.
    @Test func pipelinedAnswersKeepTheirOrder() async throws {
        let standIns = try await StandInServer.start(StandInSet().list)
        try await withTessera([], standIns: standIns) { client, standIns in
            let urls = try await thumbnails(client)
            try #require(urls.count >= 2)
            let cached = try await client.execute(uri: urls[0], method: .get, headers: [.accept: "image/jpeg"])
            let cachedTag = try #require(cached.headers[.eTag])
            standIns.imageDelay = .milliseconds(400)
            let port = try #require(client.port)

            let request = { (path: String) in "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: image/jpeg\r\n\r\n" }
            let pipelined = request(urls[1]) + request(urls[0])
            let answers = try await offPool { try RawHTTP.exchange(port: port, send: pipelined, responses: 2) }
            #expect(answers.map(\.status) == [200, 200])
            #expect(answers[0].headers["etag"] != cachedTag, "the slow miss answered first")
            #expect(answers[1].headers["etag"] == cachedTag)
            #expect(answers[1].body == Array(cached.body.readableBytesView))
        }
        await standIns.stop()
    }
}

/// A blocking HTTP/1.1 exchange over a plain socket, for what a client library hides: pipelining.
enum RawHTTP {
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A blocking socket connected to `port` on 127.0.0.1, reads timing out after 10 s; `receiveBuffer`
    /// sets its receive buffer (before connecting, so the window it offers is small from the start).
    static func connect(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        guard LoopbackSocket.connect(fd, toPort: port) == 0 else {
            let failure = Failure(description: "connect: \(errno)")
            close(fd)
            throw failure
        }
        return fd
    }

    static func exchange(port: Int, send text: String, responses count: Int) throws -> [Answer] {
        let fd = try connect(port: port)
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            throw Failure(description: "send: \(errno)")
        }

        var received: [UInt8] = []
        var answers: [Answer] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while answers.count < count {
            if let (answer, used) = parse(received) {
                answers.append(answer)
                received.removeFirst(used)
                continue
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw Failure(description: "connection ended after \(answers.count) answers") }
            received += buffer[0..<n]
        }
        return answers
    }

    /// One complete response (Content-Length framed) at the start of `bytes`, and how many bytes it took.
    static func parse(_ bytes: [UInt8]) -> (Answer, Int)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator })
        else { return nil }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = end + 4
        guard bytes.count >= bodyStart + length else { return nil }
        return (
            Answer(status: status, headers: headers, body: Array(bytes[bodyStart..<bodyStart + length])),
            bodyStart + length
        )
    }
}
