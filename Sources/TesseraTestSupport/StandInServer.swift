import Hummingbird
import NIOCore
import Synchronization
import TesseraCore

/// A real HTTP server on 127.0.0.1 (a free port) hosting stand-ins for the providers, each under its
/// own path prefix, speaking the provider's wire format. Tests point `TESSERA_<SOURCE>_URL` at it.
public final class StandInServer: Sendable {
    public let port: Int
    public let providers: [any StandInProvider]
    private let service: BackgroundService
    private let stopping: StopFlag
    private let imageHits: ImageHits

    /// How many times an image path was asked for (the image proxy must ask once per image).
    public func imageRequests(_ path: String) -> Int { imageHits.count(path) }
    public var totalImageRequests: Int { imageHits.total }
    /// The paths of every image request so far (each once), for tests of what was asked at all.
    public var requestedImagePaths: Set<String> { imageHits.paths }
    /// Every image request's path in the order the requests arrived.
    public var imageRequestOrder: [String] { imageHits.order }
    /// What the image hosts answer for a path: `StandInImage.jpeg` everywhere unless a test says otherwise
    /// (`StandInImage.distinct(for:)`: a picture of its own at every address).
    public var images: @Sendable (String) -> [UInt8] {
        get { imageHits.images }
        set { imageHits.images = newValue }
    }
    /// How long the image hosts wait before answering (zero by default), so requests overlap in tests.
    public var imageDelay: Duration {
        get { imageHits.delay }
        set { imageHits.delay = newValue }
    }

    /// Starts a server with `providers` and returns once it accepts connections.
    public static func start(_ providers: [any StandInProvider]) async throws -> StandInServer {
        let router = Router()
        let stopping = StopFlag()
        for provider in providers {
            provider.state.stopFlag = stopping
            provider.addRoutes(to: router)
        }
        router.get("/health") { _, _ in "ok" }
        // The services' image hosts, as the stand-ins' answers name them.
        let images = ImageHits()
        for path in [
            "/pixabay/cdn/**", "/flickr/live/**", "/openverse/cdn/**", "/openverse/v1/images/{id}/thumb/",
            "/wikimedia/upload/**", "/itunes/artwork/**",
        ] {
            router.get(RouterPath(path)) { request, _ in
                images.add(request.uri.path)
                if images.delay > .zero { await stopping.wait(until: .now + images.delay) }
                let bytes = images.images(request.uri.path)
                return Response(
                    status: .ok, headers: [.contentType: bytes.first == 0x89 ? "image/png" : "image/jpeg"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
            }
        }
        let (port, service) = try await startLoopbackServer(router, name: "standin")
        return StandInServer(port: port, providers: providers, service: service, stopping: stopping, images: images)
    }

    private init(
        port: Int, providers: [any StandInProvider], service: BackgroundService, stopping: StopFlag, images: ImageHits
    ) {
        self.imageHits = images
        self.port = port
        self.providers = providers
        self.service = service
        self.stopping = stopping
    }

    public var origin: String { "http://127.0.0.1:\(port)" }

    /// The environment that points Tessera at these stand-ins (base URLs and API keys).
    public var environment: [String: String] {
        var environment: [String: String] = [:]
        for provider in providers {
            environment.merge(provider.environment(origin: origin)) { _, new in new }
        }
        return environment
    }

    /// Stops the server; stalled requests are released first so shutdown does not wait for them.
    public func stop() async {
        stopping.set()
        // A stand-in that fails to shut down has nothing left to report: the test is over.
        try? await service.stop()
    }
}

public enum StandInError: Error {
    case didNotStart
}

/// Set once the server is stopping, so stalled and delayed handlers return.
final class StopFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }

    /// Waits until `deadline`, or less once the flag is set: a graceful shutdown waits for the answers in
    /// flight, so none of them may wait longer than the server runs.
    func wait(until deadline: ContinuousClock.Instant) async {
        while ContinuousClock.now < deadline, !isSet {
            try? await Task.sleep(for: min(.milliseconds(20), deadline - ContinuousClock.now))
        }
    }
}

/// A provider stand-in: its routes under a prefix, and the variables that point Tessera at it.
public protocol StandInProvider: Sendable {
    var state: StandInState { get }
    func addRoutes(to router: Router<BasicRequestContext>)
    func environment(origin: String) -> [String: String]
}

/// Image requests per path, for tests of the proxy's coalescing and caches.
final class ImageHits: Sendable {
    private let hits = Mutex<[String: Int]>([:])
    private let arrivals = Mutex<[String]>([])
    private let wait = Mutex(Duration.zero)
    private let answer = LockedClosure<@Sendable (String) -> [UInt8]>({ _ in StandInImage.jpeg })
    var images: @Sendable (String) -> [UInt8] {
        get { answer.function }
        set { answer.function = newValue }
    }
    var paths: Set<String> { hits.withLock { Set($0.keys) } }
    var delay: Duration {
        get { wait.withLock { $0 } }
        set { wait.withLock { $0 = newValue } }
    }
    var order: [String] { arrivals.withLock { $0 } }
    func add(_ path: String) {
        hits.withLock { $0[path, default: 0] += 1 }
        arrivals.withLock { $0.append(path) }
    }
    func count(_ path: String) -> Int { hits.withLock { $0[path] ?? 0 } }
    var total: Int { hits.withLock { $0.values.reduce(0, +) } }
}
