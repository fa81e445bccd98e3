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
        case didNotListen(log: String)

        public var description: String {
            switch self {
            case .notInstalled: "nginx is not installed (Debian's nginx; ./scripts/test installs it)"
            case .configuration(let status): "scripts/lib/balancer.sh could not write nginx.conf (status \(status))"
            case .didNotListen(let log): "nginx did not start listening within 20 seconds: \(log)"
            }
        }
    }

    /// Starts nginx in front of the servers at `upstreams` and waits until it accepts connections, at `port` or
    /// a free one.
    public static func start(upstreams: [Int], port: Int? = nil) async throws -> TestBalancer {
        guard available else { throw StartError.notInstalled }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try port ?? LoopbackSocket.freePort()
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
        let deadline = ContinuousClock.now + .seconds(20)
        // nginx itself must hold the listener: the port was free when chosen, but another test's server may
        // have taken it since, and nginx keeps retrying its bind for a while before it gives up.
        while ContinuousClock.now < deadline, process.isRunning {
            if Self.listens(on: port, process: process.processIdentifier), Self.accepts(port) { return balancer }
            try await Task.sleep(for: .milliseconds(50))
        }
        let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        await balancer.stop()
        throw StartError.didNotListen(log: log)
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
