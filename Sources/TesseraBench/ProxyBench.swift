import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import TesseraCore
import TesseraServer
import TesseraTestSupport

/// Cached `thumb` requests per second from Tessera's image proxy next to nginx serving the same bytes
/// from disk, both under the same wrk load in the same run; and the server's memory meanwhile.
struct ProxyThroughput: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Cached thumbnails per second: Tessera's /img vs nginx serving the same file (wrk).")

    @Option(help: "Seconds of load for each server.")
    var seconds = 10

    @Option(help: "Open connections (wrk -c).")
    var connections = 64

    @Option(help: "wrk threads (wrk -t).")
    var threads = 2

    @Option(help: "The photo the thumbnail is made from (default: the largest JPEG in Samples/).")
    var photo: String?

    mutating func run() async throws {
        for tool in ["/usr/bin/wrk", "/usr/sbin/nginx"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw ValidationError("\(tool) is missing: apt-get install wrk nginx (./scripts/bench installs them).")
        }
        let photoPath = try photo ?? Self.largestSample()
        let photoBytes = try Data(contentsOf: URL(fileURLWithPath: photoPath))
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        // The photo's origin: a plain HTTP server on loopback, trusted by the proxy as a source override is.
        let origin = try await ImageOrigin.start()
        origin.serve("/photo.jpg", [UInt8](photoBytes), contentType: "image/jpeg")
        let photoURL = origin.url("/photo.jpg")
        var quiet = Logger(label: "bench")
        quiet.logLevel = .error

        let memoryCap = 256
        let environment = try await AppEnvironment.live(
            try AppConfiguration(environment: [
                "TESSERA_DATA": work.appendingPathComponent("data").path, "TESSERA_PORT": "0",
                "TESSERA_IMAGE_ALLOW_PRIVATE": "true", "TESSERA_IMAGE_MEMORY_MB": "\(memoryCap)",
            ]), logger: quiet)
        let appPort = PortBox()
        let app = buildApplication(environment) { await appPort.set($0) }
        let running = BackgroundService(app, logger: quiet)
        let port = await appPort.wait()
        let thumbURL = "http://127.0.0.1:\(port)" + environment.imageLinker.link(photoURL, variant: .thumb)

        // Warm the cache and keep the exact bytes for nginx.
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let response = try await client.execute(HTTPClientRequest(url: thumbURL), timeout: .seconds(60))
        let thumb = try await response.body.collect(upTo: 50_000_000)
        try await client.shutdown()
        guard response.status == .ok else { throw ValidationError("the proxy answered \(response.status)") }
        let root = work.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data(thumb.readableBytesView).write(to: root.appendingPathComponent("thumb.jpg"))

        let nginx = try await Nginx.start(root: root, work: work)
        let rssBefore = Memory.residentBytes()
        let sampler = Memory.PeakSampler()
        let ours = try await Wrk.run(
            url: thumbURL, threads: threads, connections: connections, seconds: seconds, while: sampler)
        let reference = try await Wrk.run(
            url: "http://127.0.0.1:\(nginx.port)/thumb.jpg", threads: threads, connections: connections,
            seconds: seconds, while: nil)
        let floor = try await Wrk.run(
            url: "http://127.0.0.1:\(port)/api/health", threads: threads, connections: connections,
            seconds: seconds, while: nil)
        nginx.stop()
        try await running.stop()
        await origin.stop()

        let ratio = ours.requestsPerSecond / reference.requestsPerSecond
        print(
            """

            cached thumb (\(thumb.readableBytes / 1024) KB JPEG from \(URL(fileURLWithPath: photoPath).lastPathComponent)), \
            wrk -t\(threads) -c\(connections) -d\(seconds)s, same machine, same run
            """)
        printRows(
            header: ["what", "requests/s", "p50 ms", "p99 ms", "× nginx"],
            rows: [
                [
                    "nginx, the file from disk (reference)", Self.format(reference.requestsPerSecond),
                    reference.p50, reference.p99, "1.00",
                ],
                [
                    "Tessera /img/thumb, cached", Self.format(ours.requestsPerSecond), ours.p50, ours.p99,
                    String(format: "%.2f", ratio),
                ],
                [
                    "Tessera /api/health, through the router", Self.format(floor.requestsPerSecond), floor.p50,
                    floor.p99, String(format: "%.2f", floor.requestsPerSecond / reference.requestsPerSecond),
                ],
            ])
        print("goal: ≥ 0.8× nginx → \(ratio >= 0.8 ? "met" : "NOT met") (\(String(format: "%.2f", ratio))×)")
        print(
            """
            server memory: resident \(rssBefore / 1_048_576) MB before the load, peak \(sampler.peak / 1_048_576) MB \
            during it; image memory cache holds \(environment.imageMemoryCache.totalBytes / 1024) KB \
            (cap \(memoryCap) MB)
            """)
    }

    static func largestSample() throws -> String {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples")
        let files =
            (FileManager.default.enumerator(at: samples, includingPropertiesForKeys: [.fileSizeKey])?
            .compactMap { $0 as? URL } ?? [])
            .filter { ["jpg", "jpeg"].contains($0.pathExtension.lowercased()) }
        guard
            let largest = files.max(by: {
                (try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) ?? 0
                    < (try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) ?? 0
            })
        else { throw ValidationError("No JPEG in \(samples.path); pass --photo FILE.") }
        return largest.path
    }

    static func format(_ value: Double) -> String {
        String(format: "%.0f", value)
    }
}

/// nginx as a child process, serving `root` on a free loopback port with a worker per core.
struct Nginx {
    let port: Int
    let process: Process

    static func start(root: URL, work: URL) async throws -> Nginx {
        let port = try LoopbackSocket.freePort()
        let config = work.appendingPathComponent("nginx.conf")
        try """
        worker_processes \(ProcessInfo.processInfo.activeProcessorCount);
        daemon off;
        pid \(work.path)/nginx.pid;
        error_log \(work.path)/nginx-error.log;
        events { worker_connections 4096; }
        http {
            access_log off;
            sendfile on;
            tcp_nopush on;
            open_file_cache max=100;
            types { image/jpeg jpg; }
            client_body_temp_path \(work.path);
            proxy_temp_path \(work.path);
            fastcgi_temp_path \(work.path);
            uwsgi_temp_path \(work.path);
            scgi_temp_path \(work.path);
            server { listen 127.0.0.1:\(port); root \(root.path); }
        }
        """.write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", config.path, "-p", work.path, "-e", "\(work.path)/nginx-error.log"]
        try process.run()
        // Ready when it accepts connections.
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = client.shutdown() }
        for _ in 0..<100 {
            if let response = try? await client.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)/thumb.jpg"), timeout: .seconds(1)),
                response.status == .ok
            {
                return Nginx(port: port, process: process)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw ValidationError("nginx did not start; see \(work.path)/nginx-error.log")
    }

    func stop() {
        process.terminate()
    }
}

/// wrk as a child process; its summary parsed.
enum Wrk {
    struct Result {
        var requestsPerSecond: Double
        var p50: String
        var p99: String
    }

    static func run(url: String, threads: Int, connections: Int, seconds: Int, while sampler: Memory.PeakSampler?)
        async throws -> Result
    {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("wrk-\(UUID().uuidString).txt")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let status = try await runProgram(
            "/usr/bin/wrk", ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency", url],
            standardOutput: try FileHandle(forWritingTo: output), onStart: { sampler?.start() })
        sampler?.stop()
        let text = try String(contentsOf: output, encoding: .utf8)
        guard status == 0, let rps = value(after: "Requests/sec:", in: text).flatMap(Double.init) else {
            throw ValidationError("wrk failed:\n\(text)")
        }
        if text.contains("Non-2xx") { throw ValidationError("wrk saw errors:\n\(text)") }
        return Result(
            requestsPerSecond: rps, p50: value(after: "50%", in: text) ?? "?", p99: value(after: "99%", in: text) ?? "?"
        )
    }

    private static func value(after label: String, in text: String) -> String? {
        guard
            let line = text.split(separator: "\n").first(where: {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix(label)
            })
        else { return nil }
        return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(label.split(separator: " ").count)
            .first.map(milliseconds)
    }

    /// wrk writes `741.00us`, `3.14ms`, `1.02s`: all in milliseconds.
    private static func milliseconds(_ text: Substring) -> String {
        let units: [(String, Double)] = [("us", 0.001), ("ms", 1), ("s", 1000)]
        for (unit, scale) in units where text.hasSuffix(unit) {
            if let value = Double(text.dropLast(unit.count)) { return String(format: "%.2f", value * scale) }
        }
        return String(text)
    }
}

/// This process's resident memory, from /proc.
enum Memory {
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
                .flatMap({ Int($0) })
        else { return 0 }
        return kilobytes * 1024
    }

    /// Samples the resident size every 50 ms on its own thread while the load runs.
    final class PeakSampler: @unchecked Sendable {
        private let lock = NSLock()
        private var highest = 0
        private var running = false

        func start() {
            lock.withLock { running = true }
            Thread.detachNewThread { [self] in
                while lock.withLock({ running }) {
                    let now = Memory.residentBytes()
                    lock.withLock { highest = max(highest, now) }
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        }

        func stop() { lock.withLock { running = false } }
        var peak: Int { lock.withLock { highest } }
    }
}

/// A plain table: the first column left-aligned, the others right-aligned, each as wide as its widest cell.
func printRows(header: [String], rows: [[String]]) {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    let table = TextTable(widths.enumerated().map { index, width in index == 0 ? .left(width) : .right(width) })
    print(table.row(header))
    print(String(repeating: "-", count: table.row(header).count))
    for row in rows { print(table.row(row)) }
}
