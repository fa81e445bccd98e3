import AsyncHTTPClient
import Foundation
import NIOCore

/// A chromedriver child process on a loopback port of its choosing, and the one HTTP client that talks to it.
/// Start one per suite with the `.chromedriver` trait; each `Browser` is a session on it.
public final class Chromedriver: Sendable {
    public static let binary = "/usr/bin/chromedriver"

    /// The driver of the running suite, set by the `.chromedriver` trait.
    @TaskLocal public static var current: Chromedriver?

    public let port: Int
    private let process: Process
    private let http = HTTPClient(eventLoopGroupProvider: .singleton)

    private init(port: Int, process: Process) {
        self.port = port
        self.process = process
    }

    /// Launches chromedriver and returns once `GET /status` says it is ready for sessions.
    ///
    /// The driver picks its own port (`--port=0`) and the port is read from what it prints. A port chosen for it
    /// beforehand could be taken before it binds: it then exits, but another suite's driver on that port answers
    /// `/status` as ready, and this suite's sessions would die when that suite stops its driver.
    public static func start(timeout: Duration = .seconds(15)) async throws -> Chromedriver {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw WebDriverError.notInstalled(package: "chromium-driver", path: binary)
        }
        // A file rather than a pipe: nothing has to keep reading it once the port is known.
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("chromedriver-\(UUID()).out")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: output.path])
        }
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(filePath: binary)
        process.arguments = ["--port=0"]
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        // Chromium's chatter would bury the test output; failures come back as W3C errors.
        process.standardError = FileHandle.nullDevice
        try process.run()
        try? handle.close()
        var driver: Chromedriver?
        do {
            let port = try await poll("chromedriver to say its port", timeout: timeout, every: .milliseconds(50)) {
                guard process.isRunning else { throw WebDriverError.driverExited(status: process.terminationStatus) }
                return announcedPort(in: (try? String(contentsOf: output, encoding: .utf8)) ?? "")
            }
            let started = Chromedriver(port: port, process: process)
            driver = started
            try await poll("chromedriver on port \(port) to be ready", timeout: timeout, every: .milliseconds(50)) {
                guard process.isRunning else { throw WebDriverError.driverExited(status: process.terminationStatus) }
                let status = try? await started.send(.GET, "/status", nil, timeout: .seconds(1))
                return status?["ready"]?.bool == true ? () : nil
            }
            return started
        } catch {
            if let driver { await driver.stop() } else if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw error
        }
    }

    /// The port in chromedriver's "ChromeDriver was started successfully on port 41199." line, once it is there.
    static func announcedPort(in output: String) -> Int? {
        guard let match = output.firstMatch(of: /started successfully on port (\d+)\./) else { return nil }
        return Int(match.1)
    }

    /// Ends the driver process, and with it any session still open, then the HTTP client.
    public func stop() async {
        // `/shutdown` rather than `process.terminate()`: the child inherits the signal mask of the Swift
        // concurrency thread that spawned it, which blocks SIGTERM, so chromedriver would never see it.
        _ = try? await send(.GET, "/shutdown", nil, timeout: .seconds(5))
        _ = try? await poll("chromedriver to exit", timeout: .seconds(2)) { process.isRunning ? nil : () }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? await http.shutdown()
    }

    // MARK: - Commands

    public func get(_ path: String) async throws -> JSONValue { try await send(.GET, path, nil) }
    public func post(_ path: String, _ body: JSONValue = [:]) async throws -> JSONValue {
        try await send(.POST, path, body)
    }
    public func delete(_ path: String) async throws -> JSONValue { try await send(.DELETE, path, nil) }

    private enum Method: String { case GET, POST, DELETE }

    /// Sends one command and returns the `value` of its answer, or throws the W3C error it carries.
    private func send(
        _ method: Method, _ path: String, _ body: JSONValue?, timeout: TimeAmount = .seconds(60)
    ) async throws -> JSONValue {
        struct Answer: Decodable { let value: JSONValue }
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .init(rawValue: method.rawValue)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
            request.body = .bytes(try JSONEncoder().encode(body))
        }
        let response = try await http.execute(request, timeout: timeout)
        // Screenshots arrive inside the JSON as base64, so the cap is generous.
        let bytes = Data(try await response.body.collect(upTo: 64 << 20).readableBytesView)
        let label = "\(method.rawValue) \(path)"
        guard let value = try? JSONDecoder().decode(Answer.self, from: bytes).value else {
            throw WebDriverError.unexpectedResponse(
                request: label, status: response.status.code, body: String(decoding: bytes, as: UTF8.self))
        }
        if let code = value["error"]?.string {
            // Chromedriver appends "(Session info: chrome=…)" to every message; the version says nothing here.
            let message = value["message"]?.string ?? ""
            throw WebDriverError.command(
                code: code, message: message.components(separatedBy: "\n  (Session info:")[0], request: label)
        }
        return value
    }
}
