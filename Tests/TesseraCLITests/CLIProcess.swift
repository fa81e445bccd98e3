import Foundation
import TesseraTestSupport

/// The `tessera` executable run as a child process, the way a user runs it.
///
/// Output goes to temporary files, not pipes: a pipe's write end can leak into another child started at the
/// same moment by a parallel test, and then end-of-file never comes. Nothing here blocks a thread: on
/// Linux, Swift concurrency and Dispatch's global queues share one pool as wide as the CPU count, so one
/// blocking `waitUntilExit()` per child would starve the stand-in servers in this very process.
struct CLIProcess {
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["TESSERA_BINARY"] { return URL(fileURLWithPath: path) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/tessera")
    }

    typealias Result = SpawnedProcess.Finished

    /// Runs `tessera arguments...` to completion with `environment` (plus PATH and HOME), `input` on its
    /// standard input (none: /dev/null).
    static func run(_ arguments: [String], environment: [String: String], input: String? = nil) async throws
        -> Result
    {
        let exited = AsyncStream.makeStream(of: Void.self)
        let child = try Child(arguments, environment: environment, input: input) { exited.continuation.finish() }
        for await _ in exited.stream {}
        defer { child.removeFiles() }
        return Result(status: child.process.terminationStatus, stdout: child.stdout, stderr: child.stderr)
    }

    static var baseEnvironment: [String: String] {
        let current = ProcessInfo.processInfo.environment
        // No sample photos: searches stay about the stand-ins unless a test names a library.
        return [
            "PATH": current["PATH"] ?? "/usr/bin:/bin", "HOME": current["HOME"] ?? "/tmp", "TESSERA_SAMPLES": "none",
        ]
    }
}

/// A started child process whose standard output and error are written to temporary files.
final class Child: Sendable {
    let process: SpawnedProcess
    private let outURL: URL
    private let errURL: URL
    private let inURL: URL?

    init(
        _ arguments: [String], environment: [String: String], input: String? = nil,
        onExit: @escaping @Sendable () -> Void = {}
    ) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cli-\(UUID().uuidString)")
        outURL = base.appendingPathExtension("out")
        errURL = base.appendingPathExtension("err")
        inURL = input.map { _ in base.appendingPathExtension("in") }
        if let input, let inURL { try Data(input.utf8).write(to: inURL) }
        process = try SpawnedProcess(
            executable: CLIProcess.executable, arguments: arguments,
            environment: CLIProcess.baseEnvironment.merging(environment) { _, new in new }, standardOutput: outURL,
            standardError: errURL, standardInput: inURL, onExit: onExit)
    }

    var stdout: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    func removeFiles() {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
        if let inURL { try? FileManager.default.removeItem(at: inURL) }
    }
}

/// A running `tessera serve`: its printed port and signals to stop it.
final class ServerProcess: Sendable {
    let child: Child
    let port: Int

    /// Starts `tessera serve --port 0 ...` and waits until it says where it listens.
    static func start(_ arguments: [String], environment: [String: String]) async throws -> ServerProcess {
        let child = try Child(["serve", "--port", "0"] + arguments, environment: environment)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let text = child.stdout
            if let range = text.range(of: #"running on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                return ServerProcess(child: child, port: Int(text[range].split(separator: ":").last!)!)
            }
            if !child.process.isRunning { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        child.process.terminate()
        defer { child.removeFiles() }
        throw ServerError.didNotStart(stdout: child.stdout, stderr: child.stderr)
    }

    private init(child: Child, port: Int) {
        self.child = child
        self.port = port
    }

    /// Sends `signal` and waits (at most 20 s) for the exit status; `nil` if it had to be killed.
    func stop(signal: Int32 = SIGTERM) async -> Int32? {
        defer { child.removeFiles() }
        kill(child.process.processIdentifier, signal)
        let deadline = ContinuousClock.now + .seconds(20)
        while child.process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if child.process.isRunning {
            kill(child.process.processIdentifier, SIGKILL)
            return nil
        }
        return child.process.terminationStatus
    }

    enum ServerError: Error {
        case didNotStart(stdout: String, stderr: String)
    }
}
