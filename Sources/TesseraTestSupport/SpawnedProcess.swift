import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, its output sent to files, and waited for on a thread of its own.
///
/// Not Foundation's `Process`: on Linux its `run()` now and then reads past a buffer while listing
/// `/proc/self/fd` and crashes the whole test process (swift-corelibs-foundation #5472, fixed after this
/// toolchain); a test suite starting a hundred children met it. What the tests use of `Process` is here:
/// `processIdentifier`, `isRunning`, `terminationStatus` (the exit status, or the signal that ended it, as
/// `Process` reports it), `terminate()`, and a handler called once it has exited.
public final class SpawnedProcess: Sendable {
    public let processIdentifier: Int32
    private let status = Mutex<Int32?>(nil)

    /// Starts `executable` with `arguments` and exactly `environment`; standard output and error go to the
    /// files at those paths (made or emptied), standard input is the file `standardInput` (/dev/null when nil).
    /// Every other descriptor is closed in the child, so it holds none of this process's sockets or files.
    public init(
        executable: URL, arguments: [String], environment: [String: String], standardOutput: URL,
        standardError: URL, standardInput: URL? = nil, onExit: @escaping @Sendable () -> Void = {}
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput?.path ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardError.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        Self.closeFrom3(&actions)

        // Signals as a shell would leave them: none blocked, the usual actions (this process may ignore some).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw NSError(
                domain: NSPOSIXErrorDomain, code: Int(result),
                userInfo: [
                    NSLocalizedDescriptionKey: "posix_spawn \(executable.path): \(String(cString: strerror(result)))"
                ])
        }
        processIdentifier = pid

        // One thread per child, blocked in waitpid: never one of Swift concurrency's few pool threads.
        let child = pid
        let thread = Thread { [self] in
            var raw: Int32 = 0
            while waitpid(child, &raw, 0) == -1, errno == EINTR {}
            let exited = raw & 0x7f == 0
            self.status.withLock { $0 = exited ? (raw >> 8) & 0xff : raw & 0x7f }
            onExit()
        }
        thread.start()
    }

    public var isRunning: Bool { status.withLock { $0 == nil } }

    /// The exit status once it has exited (or the signal that ended it); -1 while it runs.
    public var terminationStatus: Int32 { status.withLock { $0 ?? -1 } }

    /// SIGTERM.
    public func terminate() {
        if isRunning { kill(processIdentifier, SIGTERM) }
    }

    /// What a program run to completion printed, and how it ended.
    public struct Finished: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// Runs `executable` to completion with this process's environment (or `environment`), its output kept
    /// in temporary files (a pipe's write end could leak into a child a parallel test starts).
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) async throws -> Finished {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-run-\(UUID().uuidString)")
        let (out, err) = (base.appendingPathExtension("out"), base.appendingPathExtension("err"))
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let exited = AsyncStream.makeStream(of: Void.self)
        let process = try SpawnedProcess(
            executable: URL(fileURLWithPath: executable), arguments: arguments,
            environment: environment ?? ProcessInfo.processInfo.environment, standardOutput: out, standardError: err
        ) { exited.continuation.finish() }
        for await _ in exited.stream {}
        return Finished(
            status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), looked up at run time: Swift does not import it.
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
}
