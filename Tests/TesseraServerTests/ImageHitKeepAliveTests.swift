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

/// Answers of the image fast path (`ImageHitHandler`) share their connection with the router's. Each test
/// asks one keep-alive connection a sequence a browser or an HTTP client library would, one request at a time,
/// and checks that every answer after a fast-path one (a HEAD, a 304) arrives whole and framed as its own
/// request says.
@Suite("Image fast path on a kept-alive connection")
struct ImageHitKeepAliveTests {
    /// Two thumbnail URLs of a search; the first is fetched once, so it is in the memory cache.
    private func thumbnails(_ client: any TestClientProtocol, headers: HTTPFields = [:]) async throws -> (
        cached: String, uncached: String, image: TestResponse
    ) {
        let search = try await client.execute(uri: "/api/search?q=fox&scope=pixabay", method: .get, headers: headers)
            .json(SearchResponse.self)
        let urls = try #require(search.sections.first?.items.compactMap { $0.thumbnail?.url })
        try #require(urls.count >= 2)
        var imageHeaders = headers
        imageHeaders[.accept] = "image/jpeg"
        let image = try await client.execute(uri: urls[0], method: .get, headers: imageHeaders)
        try #require(image.status == .ok)
        return (urls[0], urls[1], image)
    }

    @Test func anAnswerAfterAHeadOfACachedImageIsWhole() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let (cached, _, image) = try await thumbnails(client)
            let me = try await client.execute(uri: "/api/me", method: .get)
            let port = try #require(client.port)
            let answers = try await KeepAliveConnection.ask(
                port: port,
                [
                    .init("HEAD", cached), .init("GET", "/api/me"), .init("HEAD", cached), .init("GET", cached),
                    .init("GET", "/api/no-such-thing"),
                ])
            #expect(answers.map(\.status) == [200, 200, 200, 200, 404])
            #expect(answers[0].headers["content-length"] == String(image.body.readableBytes))
            #expect(answers[0].body.isEmpty)
            #expect(answers[1].body == Array(me.body.readableBytesView))
            #expect(answers[3].body == Array(image.body.readableBytesView))
            #expect(String(decoding: answers[4].body, as: UTF8.self).contains("\"not_found\""))
        }
    }

    @Test func answersAfterANotModifiedAreWhole() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let (cached, uncached, image) = try await thumbnails(client)
            let etag = try #require(image.headers[.eTag])
            let me = try await client.execute(uri: "/api/me", method: .get)
            let port = try #require(client.port)
            let answers = try await KeepAliveConnection.ask(
                port: port,
                [
                    .init("GET", cached, headers: ["If-None-Match": etag]), .init("HEAD", uncached),
                    .init("GET", "/api/me"), .init("HEAD", cached, headers: ["If-None-Match": etag]),
                    .init("GET", "/api/no-such-thing"),
                ])
            #expect(answers.map(\.status) == [304, 200, 200, 304, 404])
            #expect(answers[0].headers["etag"] == etag)
            #expect(answers[2].body == Array(me.body.readableBytesView))
            #expect(String(decoding: answers[4].body, as: UTF8.self).contains("\"not_found\""))
        }
    }

    /// A HEAD the cache cannot answer goes to the router, between answers of the fast path.
    @Test func answersAroundAHeadThatMissesTheCacheAreWhole() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let (cached, uncached, image) = try await thumbnails(client)
            let me = try await client.execute(uri: "/api/me", method: .get)
            let port = try #require(client.port)
            let answers = try await KeepAliveConnection.ask(
                port: port,
                [
                    .init("GET", cached), .init("HEAD", uncached), .init("GET", "/api/me"), .init("GET", cached),
                ])
            #expect(answers.map(\.status) == [200, 200, 200, 200])
            #expect(answers[0].body == Array(image.body.readableBytesView))
            #expect(answers[1].body.isEmpty)
            #expect(Int(answers[1].headers["content-length"] ?? "") ?? 0 > 0)
            #expect(answers[2].body == Array(me.body.readableBytesView))
            #expect(answers[3].body == Array(image.body.readableBytesView))
        }
    }

    @Test func aConnectionAskedToCloseClosesAfterTheWholeAnswer() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let (cached, _, image) = try await thumbnails(client)
            let port = try #require(client.port)
            for method in ["HEAD", "GET"] {
                let answers = try await KeepAliveConnection.ask(
                    port: port, [.init("HEAD", cached), .init(method, cached, headers: ["Connection": "close"])])
                #expect(answers.map(\.status) == [200, 200])
                #expect(answers[1].headers["connection"] == "close")
                #expect(answers[1].body == (method == "GET" ? Array(image.body.readableBytesView) : []))
            }
        }
    }

    @Test func anAnswerAfterAHeadWithTheTokenIsWhole() async throws {
        let token = "keep-alive-token"
        try await withTessera(StandInSet().list, extraEnvironment: ["TESSERA_TOKEN": token]) { client, _ in
            let (cached, _, image) = try await thumbnails(client, headers: [.authorization: "Bearer \(token)"])
            let me = try await client.execute(
                uri: "/api/me", method: .get, headers: [.authorization: "Bearer \(token)"])
            let port = try #require(client.port)
            let bearer = ["Authorization": "Bearer \(token)"]
            let answers = try await KeepAliveConnection.ask(
                port: port,
                [
                    .init("HEAD", cached, headers: bearer), .init("GET", "/api/me", headers: bearer),
                    .init("GET", cached, headers: bearer),
                ])
            #expect(answers.map(\.status) == [200, 200, 200])
            #expect(answers[1].body == Array(me.body.readableBytesView))
            #expect(answers[2].body == Array(image.body.readableBytesView))
        }
    }
}

/// One keep-alive connection asked one request at a time, each answer read in full before the next request
/// is sent, with the body framing HTTP/1.1 gives it: none for a HEAD or a 304, else `Content-Length` bytes.
enum KeepAliveConnection {
    struct Request {
        var method: String
        var path: String
        var headers: [String: String]

        init(_ method: String, _ path: String, headers: [String: String] = [:]) {
            self.method = method
            self.path = path
            self.headers = headers
        }
    }

    static func ask(port: Int, _ requests: [Request]) async throws -> [RawHTTP.Answer] {
        try await offPool { try exchange(port: port, requests) }
    }

    private static func exchange(port: Int, _ requests: [Request]) throws -> [RawHTTP.Answer] {
        let fd = try RawHTTP.connect(port: port)
        defer { close(fd) }
        var received: [UInt8] = []
        var answers: [RawHTTP.Answer] = []
        for request in requests {
            let fields = request.headers.map { "\($0.key): \($0.value)\r\n" }.joined()
            let text =
                "\(request.method) \(request.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: image/jpeg\r\n\(fields)\r\n"
            let bytes = Array(text.utf8)
            guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count
            else {
                throw RawHTTP.Failure(description: "send of \(request.method) \(request.path): errno \(errno)")
            }
            let asked = "answer \(answers.count + 1), to \(request.method) \(request.path)"
            while true {
                if let (answer, used) = try parse(received, bodiless: request.method == "HEAD", asked: asked) {
                    answers.append(answer)
                    received.removeFirst(used)
                    break
                }
                var buffer = [UInt8](repeating: 0, count: 65536)
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else {
                    throw RawHTTP.Failure(
                        description: "\(asked): the connection \(n == 0 ? "ended" : "went silent") with "
                            + "\(received.count) bytes of it received: "
                            + String(decoding: received.prefix(400), as: UTF8.self))
                }
                received += buffer[0..<n]
            }
        }
        if requests.last?.headers["Connection"] == "close" {
            var byte: UInt8 = 0
            let n = recv(fd, &byte, 1, 0)
            guard n == 0 else {
                throw RawHTTP.Failure(description: "the connection stayed open after an answer to Connection: close")
            }
        }
        guard received.isEmpty else {
            throw RawHTTP.Failure(
                description: "\(received.count) bytes after the last answer: "
                    + String(decoding: received.prefix(200), as: UTF8.self))
        }
        return answers
    }

    /// One answer at the start of `bytes`, and how many bytes it took; `nil` while it is incomplete.
    private static func parse(_ bytes: [UInt8], bodiless: Bool, asked: String) throws -> (RawHTTP.Answer, Int)? {
        guard !bytes.isEmpty else { return nil }
        guard bytes.starts(with: Array("HTTP/1.1 ".utf8)) || Array("HTTP/1.1 ".utf8).starts(with: bytes) else {
            throw RawHTTP.Failure(
                description: "\(asked) does not start with a status line: "
                    + String(decoding: bytes.prefix(200), as: UTF8.self))
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0..<$0 + 4].elementsEqual(separator) })
        else { return nil }
        let lines = String(decoding: bytes[0..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        var answer = RawHTTP.Answer(status: Int(lines[0].split(separator: " ")[1]) ?? 0, headers: [:], body: [])
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            answer.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = bodiless || answer.status == 304 ? 0 : Int(answer.headers["content-length"] ?? "0") ?? 0
        let bodyStart = headEnd + 4
        guard bytes.count >= bodyStart + length else { return nil }
        answer.body = Array(bytes[bodyStart..<bodyStart + length])
        return (answer, bodyStart + length)
    }
}
