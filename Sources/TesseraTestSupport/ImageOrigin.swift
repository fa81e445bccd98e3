import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// A stand-in image host: a real HTTP server on 127.0.0.1 (a free port) whose answer for each path tests
/// set, and change, while it runs. For tests and benchmarks of the image fetcher and the image proxy.
///
/// ```swift
/// let origin = try await ImageOrigin.start()
/// origin.serve("/a.jpg", jpegBytes, contentType: "image/jpeg")
/// origin.serve("/chunked.jpg", jpegBytes, contentType: "image/jpeg", chunked: true)
/// origin.redirect("/r", to: origin.url("/a.jpg"), status: 302)
/// origin.stall("/slow", for: .seconds(30))
/// origin.status("/gone", 404, body: "<html>not here</html>", contentType: "text/html")
/// // fetch origin.url("/a.jpg") ...
/// #expect(origin.hits("/a.jpg") == 1)
/// await origin.stop()
/// ```
///
/// Paths without an answer get 404. Hits are counted per path (query ignored), unknown paths included.
public final class ImageOrigin: Sendable {
    /// How the origin answers one path.
    public struct Answer: Sendable {
        public var status: Int
        /// Extra response headers (`Content-Type`, `Location`, ...).
        public var headers: [String: String]
        public var body: [UInt8]
        /// Sends the body without `Content-Length` (chunked transfer encoding), in pieces of `chunkSize`.
        public var chunked: Bool
        public var chunkSize: Int
        /// The `Content-Length` to claim instead of the body's real size (ignored when `chunked`).
        public var declaredLength: Int?
        /// Wait before the status line is sent.
        public var delay: Duration
        /// Pause for `stallDuration` once this many body bytes are sent.
        public var stallAfterBytes: Int?
        public var stallDuration: Duration

        public init(
            status: Int = 200, headers: [String: String] = [:], body: [UInt8] = [], chunked: Bool = false,
            chunkSize: Int = 16 * 1024, declaredLength: Int? = nil, delay: Duration = .zero,
            stallAfterBytes: Int? = nil, stallDuration: Duration = .zero
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.chunked = chunked
            self.chunkSize = max(1, chunkSize)
            self.declaredLength = declaredLength
            self.delay = delay
            self.stallAfterBytes = stallAfterBytes
            self.stallDuration = stallDuration
        }
    }

    /// One request as the origin received it.
    public struct Hit: Sendable {
        public let path: String
        /// The raw query string, `""` when there was none.
        public let query: String
        /// Header names lower-cased; `host` included.
        public let headers: [String: String]
    }

    public let port: Int
    private let service: BackgroundService
    private let stopping: StopFlag
    private let routes: Routes

    /// Starts an origin with no answers and returns once it accepts connections.
    public static func start() async throws -> ImageOrigin {
        let routes = Routes()
        let stopping = StopFlag()
        let router = Router()
        router.get("**") { request, _ in await routes.respond(to: request, stopping: stopping) }
        router.get("/") { request, _ in await routes.respond(to: request, stopping: stopping) }
        let (port, service) = try await startLoopbackServer(router, name: "image-origin")
        return ImageOrigin(port: port, service: service, stopping: stopping, routes: routes)
    }

    private init(port: Int, service: BackgroundService, stopping: StopFlag, routes: Routes) {
        self.port = port
        self.service = service
        self.stopping = stopping
        self.routes = routes
    }

    /// `http://127.0.0.1:PORT`.
    public var origin: String { "http://127.0.0.1:\(port)" }

    /// `127.0.0.1:PORT`, the form the fetcher's trusted origins take.
    public var hostAndPort: String { "127.0.0.1:\(port)" }

    /// The absolute URL of `path` (which may carry a query) on this origin.
    public func url(_ path: String) -> String {
        origin + (path.hasPrefix("/") ? path : "/" + path)
    }

    // MARK: - Answers

    /// Sets (or replaces) the answer for `path`.
    public func answer(_ path: String, with answer: Answer) {
        routes.set(answer, for: path)
    }

    /// Serves `bytes` with `contentType`: with `Content-Length`, or chunked in pieces without it.
    public func serve(
        _ path: String, _ bytes: [UInt8], contentType: String?, chunked: Bool = false, chunkSize: Int = 16 * 1024
    ) {
        answer(
            path,
            with: Answer(
                headers: contentType.map { ["Content-Type": $0] } ?? [:], body: bytes, chunked: chunked,
                chunkSize: chunkSize))
    }

    /// Answers `status` with `Location: location` (any URL, relative or absolute).
    public func redirect(_ path: String, to location: String, status: Int = 302) {
        answer(path, with: Answer(status: status, headers: ["Location": location]))
    }

    /// Waits `duration` (or until the origin stops) before answering 200 with an empty body.
    public func stall(_ path: String, for duration: Duration) {
        answer(path, with: Answer(headers: ["Content-Type": "image/jpeg"], delay: duration))
    }

    /// Sends the head and the first `afterBytes` bytes of `bytes`, then waits `duration` before the rest.
    public func stallMidBody(
        _ path: String, _ bytes: [UInt8], contentType: String?, after afterBytes: Int, for duration: Duration,
        chunked: Bool = false
    ) {
        answer(
            path,
            with: Answer(
                headers: contentType.map { ["Content-Type": $0] } ?? [:], body: bytes, chunked: chunked,
                stallAfterBytes: afterBytes, stallDuration: duration))
    }

    /// Answers `status` with `body`.
    public func status(_ path: String, _ status: Int, body: String = "", contentType: String = "text/plain") {
        answer(path, with: Answer(status: status, headers: ["Content-Type": contentType], body: Array(body.utf8)))
    }

    // MARK: - What it saw

    /// How many requests `path` received (query ignored).
    public func hits(_ path: String) -> Int { routes.hits(path).count }

    /// The requests `path` received, oldest first.
    public func requests(_ path: String) -> [Hit] { routes.hits(path) }

    /// How many requests the origin received on any path.
    public var totalHits: Int { routes.totalHits }

    /// Stops the server; stalls are cut short first so shutdown does not wait for them.
    public func stop() async {
        stopping.set()
        // A stand-in that fails to shut down has nothing left to report: the test is over.
        try? await service.stop()
    }
}

// MARK: - Routes

/// The answers and the hit log, shared by the handler and the tests.
private final class Routes: Sendable {
    private struct State {
        var answers: [String: ImageOrigin.Answer] = [:]
        var hits: [String: [ImageOrigin.Hit]] = [:]
    }

    private let state = Mutex(State())

    func set(_ answer: ImageOrigin.Answer, for path: String) {
        state.withLock { $0.answers[Self.key(path)] = answer }
    }

    func hits(_ path: String) -> [ImageOrigin.Hit] {
        state.withLock { $0.hits[Self.key(path)] ?? [] }
    }

    var totalHits: Int { state.withLock { $0.hits.values.reduce(0) { $0 + $1.count } } }

    func respond(to request: Request, stopping: StopFlag) async -> Response {
        let path = request.uri.path
        var headers = Dictionary(
            request.headers.map { ($0.name.canonicalName.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        // HTTP/1's Host header arrives as the request's authority.
        if let authority = request.head.authority { headers["host"] = authority }
        let hit = ImageOrigin.Hit(path: path, query: request.uri.query ?? "", headers: headers)
        let answer = state.withLock { state in
            state.hits[path, default: []].append(hit)
            return state.answers[path]
        }
        guard let answer else {
            return Response(
                status: .notFound, headers: [.contentType: "text/plain"],
                body: .init(byteBuffer: ByteBuffer(string: "no answer set for \(path)")))
        }
        if answer.delay > .zero { await stopping.wait(until: .now + answer.delay) }
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        return Response(
            status: HTTPResponse.Status(code: answer.status), headers: fields,
            body: Self.body(answer, stopping: stopping))
    }

    private static func body(_ answer: ImageOrigin.Answer, stopping: StopFlag) -> ResponseBody {
        if !answer.chunked, answer.stallAfterBytes == nil, answer.declaredLength == nil {
            return ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
        }
        let length = answer.chunked ? nil : (answer.declaredLength ?? answer.body.count)
        return ResponseBody(contentLength: length) { writer in
            var sent = 0
            var stalled = false
            while sent < answer.body.count {
                var end = min(sent + answer.chunkSize, answer.body.count)
                if let stallAt = answer.stallAfterBytes, !stalled, stallAt >= sent { end = min(end, stallAt) }
                if end > sent {
                    try await writer.write(ByteBuffer(bytes: answer.body[sent..<end]))
                    sent = end
                }
                if let stallAt = answer.stallAfterBytes, !stalled, sent >= stallAt {
                    stalled = true
                    await stopping.wait(until: .now + answer.stallDuration)
                }
            }
            try await writer.finish(nil)
        }
    }

    /// Paths are matched without their query.
    private static func key(_ path: String) -> String {
        let path = String(path.prefix { $0 != "?" })
        return path.hasPrefix("/") ? path : "/" + path
    }
}
