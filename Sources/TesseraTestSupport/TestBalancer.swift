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

    /// Starts nginx in front of the servers at `upstreams` and waits until it accepts connections.
    public static func start(upstreams: [Int]) async throws -> TestBalancer {
        guard available else { throw StartError.notInstalled }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try LoopbackSocket.freePort()
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
        while ContinuousClock.now < deadline, process.isRunning {
            if Self.accepts(port) { return balancer }
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

    private static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return LoopbackSocket.connect(descriptor, toPort: port) == 0
    }
}
