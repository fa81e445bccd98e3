import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import TesseraCore
import TesseraGalleries
import TesseraTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `/api/health` and a cached thumbnail, and the server's resident memory, first with no load, then while
/// hostile and careless clients hold it (issue 17): half-open connections, stalled event-stream readers, a
/// client searching at ten times its limit. `tessera serve` runs as its own process, with its defaults, so
/// its memory is its own and every guard (timeouts, cap, fair use) is the one an operator gets.
struct AbuseBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abuse",
        abstract: "Health and cached-thumbnail latency and server memory, idle and under abuse.")

    @Option(help: "Half-open connections held (a request line and one header each, re-opened when closed).")
    var halfOpen = 2000

    @Option(help: "Event-stream readers that never read.")
    var streams = 50

    @Option(help: "Searches per second by the greedy client (the default limit is one a second: 60/min).")
    var searchesPerSecond = 10

    @Option(help: "Seconds each measuring phase lasts (under abuse, past one header timeout of 10 s).")
    var seconds = 15

    @Option(help: "The tessera executable to run.")
    var binary = ".build/release/tessera"

    func run() async throws {
        let openFiles = OpenFiles.raise()
        guard openFiles > halfOpen + streams + 200 else {
            throw ValidationError("\(openFiles) open files allowed; the bench needs \(halfOpen + streams + 200)")
        }
        let standIns = try await StandInServer.start(StandInSet().list)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-abuse-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var environment = standIns.environment
        environment["TESSERA_DATA"] = data.path
        environment["TESSERA_SAMPLES"] = "none"
        environment["TESSERA_LOG_LEVEL"] = "error"
        let server = try await ServerChild.start(binary: binary, environment: environment)
        let measuring = HTTPClient(eventLoopGroupProvider: .singleton)
        let base = "http://127.0.0.1:\(server.port)"
        do {
            try await measure(server, measuring, base)
        } catch {
            server.stop()
            try await measuring.shutdown()
            await standIns.stop()
            throw error
        }
        server.stop()
        try await measuring.shutdown()
        await standIns.stop()
    }

    private func measure(_ server: ServerChild, _ client: HTTPClient, _ base: String) async throws {
        // A thumbnail the memory cache holds (a search result's, fetched once), and a gallery to watch.
        let search = try await GalleryBench.call(client, "GET", base + "/api/search?q=fox&scope=pixabay")
        let answer = try JSONDecoder().decode(SearchResponse.self, from: search)
        guard let thumbnail = answer.sections.first?.items.first?.thumbnail?.url else {
            throw ValidationError("no search result with a thumbnail")
        }
        _ = try await GalleryBench.call(client, "GET", base + thumbnail)
        let gallery = try await GalleryBench.createGallery(client, base, "watched")
        let targets = [("GET /api/health", base + "/api/health"), ("GET cached thumbnail", base + thumbnail)]

        say("no load: \(seconds) s")
        let idleTimes = try await Self.timed(client, targets, for: .seconds(seconds))
        let idleMemory = try server.residentBytes()

        say("abuse: \(halfOpen) half-open connections, \(streams) stalled streams, \(searchesPerSecond) searches/s")
        let attack = Attack(port: server.port, gallery: gallery)
        let attackers = Task {
            try await attack.hold(halfOpen: halfOpen, streams: streams, searches: searchesPerSecond)
        }
        try await attack.waitUntilHeld(halfOpen: halfOpen, streams: streams)
        let sampler = Task {
            var peak = 0
            while !Task.isCancelled {
                peak = max(peak, (try? server.residentBytes()) ?? 0)
                try? await Task.sleep(for: .milliseconds(200))
            }
            return peak
        }
        let abuseTimes = try await Self.timed(client, targets, for: .seconds(seconds))
        sampler.cancel()
        let peakMemory = max(await sampler.value, try server.residentBytes())
        let report = attack.report()
        attackers.cancel()
        _ = try? await attackers.value
        attack.closeAll()

        let rows = zip(targets, zip(idleTimes, abuseTimes)).flatMap { target, times in
            [("\(target.0), no load (reference)", times.0), ("\(target.0), under abuse", times.1)]
        }
        printTable(title: "tessera serve (own process, default settings), \(seconds) s per phase", rows: rows)
        let megabytes = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        print("resident memory: \(megabytes(idleMemory)) idle, \(megabytes(peakMemory)) at most under abuse")
        print(
            "abuse held: \(report.halfOpenHeld) half-open connections (re-opened \(report.reopened) times after the"
                + " server closed them), \(report.streams) stalled streams with \(report.changes) gallery changes"
                + " sent to them, searches answered \(report.searchesServed) × 200 and \(report.searchesRefused) × 429")
        let worst = abuseTimes.map { percentile($0, 0.99) }.max() ?? .zero
        let ratio = Double(peakMemory) / Double(max(idleMemory, 1))
        print(
            "goal: p99 < 10 ms for both → \(worst < .milliseconds(10) ? "met" : "NOT met") (\(ms(worst)) ms); "
                + "memory < 2× idle → \(ratio < 2 ? "met" : "NOT met") (\(String(format: "%.2f", ratio))×)")
    }

    /// Requests to each target in turn, one at a time, for `duration`; every request's time per target.
    static func timed(_ client: HTTPClient, _ targets: [(String, String)], for duration: Duration) async throws
        -> [[Duration]]
    {
        var times = [[Duration]](repeating: [], count: targets.count)
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {
            for (index, target) in targets.enumerated() {
                let started = ContinuousClock.now
                let response = try await client.execute(HTTPClientRequest(url: target.1), timeout: .seconds(30))
                _ = try await response.body.collect(upTo: 16 << 20)
                guard response.status == .ok else { throw ValidationError("\(target.0) answered \(response.status)") }
                times[index].append(ContinuousClock.now - started)
            }
        }
        return times
    }
}

/// The process's open-file limit, raised to its hard limit.
enum OpenFiles {
    static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return Int(clamping: limit.rlim_cur)
    }
}

/// `tessera serve --port 0` as a child process.
final class ServerChild: Sendable {
    let process: Process
    let port: Int
    private let output: URL

    private init(process: Process, port: Int, output: URL) {
        self.process = process
        self.port = port
        self.output = output
    }

    static func start(binary: String, environment: [String: String]) async throws -> ServerChild {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ValidationError("\(binary) is missing: swift build -c release --product tessera")
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-abuse-\(UUID()).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--port", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline && process.isRunning {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"running on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                let port = Int(text[range].split(separator: ":").last ?? "")
            {
                return ServerChild(process: process, port: port, output: output)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw ValidationError("tessera serve did not start")
    }

    /// `VmRSS` from `/proc/PID/status`, in bytes.
    func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ")[1])
        else { throw ValidationError("no VmRSS for the server") }
        return kilobytes * 1024
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: output)
    }
}
