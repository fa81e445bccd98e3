import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// nginx balancing between servers on loopback, configured as `scripts/cluster` configures it (the one
/// `write_balancer_config` of scripts/lib/balancer.sh writes both), at a free port of its own.
///
/// Needs Debian's `nginx` (`./scripts/test` installs it); `TestBalancer.available` says whether it is there.
public final class TestBalancer: Sendable {
    public let port: Int
    private let process: SpawnedProcess
    private let folder: URL

    public static let executable = "/usr/sbin/nginx"
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/lib/balancer.sh")

    public enum StartError: Error, CustomStringConvertible {
        case notInstalled
        case configuration(status: Int32)
        /// nginx ended, or did not listen in time; `log` is what it wrote, to its standard error and error.log.
        case didNotListen(port: Int, exited: Int32?, log: String)

        public var description: String {
            switch self {
            case .notInstalled: "nginx is not installed (Debian's nginx; ./scripts/test installs it)"
            case .configuration(let status): "scripts/lib/balancer.sh could not write nginx.conf (status \(status))"
            case .didNotListen(let port, let exited, let log):
                (exited.map { "nginx exited (status \($0)) before listening on 127.0.0.1:\(port)" }
                    ?? "nginx did not start listening on 127.0.0.1:\(port) within \(listenWait)")
                    + ": " + (log.isEmpty ? "it wrote nothing" : log)
            }
        }
    }

    /// How long nginx may take to listen; far more than it needs, for a machine busy with other tests.
    static let listenWait = Duration.seconds(60)

    /// Starts nginx in front of the servers at `upstreams` and waits until it accepts connections, at `port` or
    /// one of its own choosing.
    ///
    /// A port the kernel hands out for `bind(0)` comes from its ephemeral range, where every outgoing connection
    /// on the machine also takes its local port: under a full test run one of them can take the port between
    /// its choice and nginx's `bind`, which then fails (`Address already in use`) after 2.5 s of retries. So a
    /// port of its own choosing is taken below that range, where only listeners live, and another is tried
    /// should a listener take it first.
    public static func start(upstreams: [Int], port: Int? = nil) async throws -> TestBalancer {
        guard available else { throw StartError.notInstalled }
        if let port { return try await start(upstreams: upstreams, at: port) }
        return try await start(upstreams: upstreams, choosingPorts: listenerPort)
    }

    /// Starts nginx at a port from `choosingPorts`, and at another while a port it chose was taken first.
    static func start(upstreams: [Int], choosingPorts: () throws -> Int) async throws -> TestBalancer {
        for _ in 1..<5 {
            do {
                return try await start(upstreams: upstreams, at: try choosingPorts())
            } catch StartError.didNotListen(_, .some, let log) where log.contains("Address already in use") {
                continue
            }
        }
        return try await start(upstreams: upstreams, at: try choosingPorts())
    }

    private static func start(upstreams: [Int], at port: Int) async throws -> TestBalancer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let writer = try await SpawnedProcess.run(
            "/bin/bash",
            ["-c", "source \"$0\" && write_balancer_config \"$@\"", script.path, folder.path, "\(port)"]
                + upstreams.map(String.init))
        guard writer.status == 0 else { throw StartError.configuration(status: writer.status) }

        let process = try SpawnedProcess(
            executable: URL(fileURLWithPath: executable),
            arguments: [
                "-p", folder.path, "-c", folder.appendingPathComponent("nginx.conf").path, "-g", "daemon off;",
            ],
            environment: ProcessInfo.processInfo.environment,
            standardOutput: folder.appendingPathComponent("stdout.log"),
            standardError: folder.appendingPathComponent("stderr.log"))
        let balancer = TestBalancer(port: port, process: process, folder: folder)
        let deadline = ContinuousClock.now + listenWait
        // nginx itself must hold the listener: the port was free when chosen, but another test's server may
        // have taken it since, and nginx keeps retrying its bind for a while before it gives up.
        while ContinuousClock.now < deadline, process.isRunning {
            if Self.listens(on: port, process: process.processIdentifier), Self.accepts(port) { return balancer }
            try await Task.sleep(for: .milliseconds(50))
        }
        let exited = process.isRunning ? nil : process.terminationStatus
        // Start-up errors (a bind that failed, a bad configuration) go to standard error before error.log opens.
        let log = ["stderr.log", "error.log"].compactMap { name in
            (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }.joined(separator: "\n")
        await balancer.stop()
        throw StartError.didNotListen(port: port, exited: exited, log: log)
    }

    /// A loopback port nobody listens on now, below the kernel's ephemeral range (where no outgoing connection
    /// takes its local port), or one from `bind(0)` should that range leave no room.
    static func listenerPort() throws -> Int {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        let firstEphemeral = range?.first ?? 32768
        guard firstEphemeral > 12_000 else { return try LoopbackSocket.freePort() }
        for _ in 0..<50 {
            let candidate = Int.random(in: 10_000..<firstEphemeral)
            if let socket = try? LoopbackSocket(port: candidate) {
                socket.close()
                return candidate
            }
        }
        return try LoopbackSocket.freePort()
    }

    private init(port: Int, process: SpawnedProcess, folder: URL) {
        self.port = port
        self.process = process
        self.folder = folder
    }

    /// Stops nginx (at once, not waiting for open streams) and removes its folder.
    public func stop() async {
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Whether `pid` holds the socket listening on 127.0.0.1:`port`: /proc/net/tcp names the listener's
    /// inode, and the process's descriptors are links to "socket:[inode]".
    static func listens(on port: Int, process pid: Int32) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return false }
        let local = String(format: "0100007F:%04X", port)
        let listeners = table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: " ")
            // local_address, state 0A (LISTEN), inode.
            guard fields.count > 9, fields[1] == local, fields[3] == "0A" else { return nil }
            return "socket:[\(fields[9])]"
        }
        guard !listeners.isEmpty else { return false }
        let descriptors = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
        return names.contains { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\(name)"))
                .map(listeners.contains) ?? false
        }
    }

    private static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return LoopbackSocket.connect(descriptor, toPort: port) == 0
    }
}
