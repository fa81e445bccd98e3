import ArgumentParser
import Dispatch
import Foundation
import Synchronization
import TesseraCore
import TesseraImageProcessing
import TesseraLibrary
import TesseraServer

/// `tessera library`: index and search the user's own photo folders from a terminal.
struct Library: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Index and search your own photo folders (the local source).",
        subcommands: [LibraryIndex.self, LibrarySearch.self])
}

/// `tessera library index DIR`.
struct LibraryIndex: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index a folder of photos (again): new and changed files are read, deleted ones dropped.",
        discussion: """
            Progress goes to standard error, the summary to standard output. Ctrl-C stops after saving what \
            was read; run the same command again to carry on.
            Exit status: 0 done, 1 failure, 2 bad input (such as a missing folder), 130 interrupted.
            """)

    @Argument(help: ArgumentHelp("The folder of photos (searched recursively).", valueName: "dir"))
    var folder: String

    @Option(help: ArgumentHelp("Files read at once.", valueName: "n"))
    var concurrency = 4

    @OptionGroup var common: CommonOptions
    @OptionGroup var shared: SharedIndexOptions

    func run() async throws {
        let configuration = try shared.configuration(common)
        guard (1...64).contains(concurrency) else { throw Exit.badInput("--concurrency must be 1–64.") }
        let store = try await LibraryCommand.openStore(configuration)
        let indexer = LibraryIndexer(
            store: store, processor: ImageProcessor(concurrency: concurrency), concurrency: concurrency)
        let printer = ProgressPrinter(isTerminal: isatty(STDERR_FILENO) == 1)
        let folder = folder
        // The handler goes in before the work starts: a signal after the first progress line is always seen.
        let stop = CancelLater<Result<IndexSummary, LibraryError>>()
        let signals = StopOnSignal { stop.cancel() }
        let indexing = Task { () async -> Result<IndexSummary, LibraryError> in
            do throws(LibraryError) {
                // On PostgreSQL, only while no server (or other command) indexes the shared index.
                let indexed = try await store.whileIndexing { () async -> Result<IndexSummary, LibraryError> in
                    do throws(LibraryError) {
                        return .success(try await indexer.index(folder: folder) { printer.show($0) })
                    } catch {
                        return .failure(error)
                    }
                }
                return indexed ?? .failure(.indexedElsewhere)
            } catch {
                return .failure(error)
            }
        }
        stop.set(indexing)
        let result = await indexing.value
        signals.stop()
        printer.finish()

        let summary: IndexSummary
        switch result {
        case .success(let value): summary = value
        case .failure(let error):
            Terminal.error("error: \(error.message)\n")
            throw ExitCode(error.isBadInput ? 2 : 1)
        }
        let rate = summary.filesRead > 0 ? " (\(Self.rate(summary.filesPerSecond)) files/s)" : ""
        Terminal.out("Indexed \(summary.root) in \(Self.seconds(summary.elapsed))\(rate)\n\(summary.line)\n")
        if summary.interrupted {
            Terminal.error("Interrupted: what was read is saved; run the same command again to carry on.\n")
            throw ExitCode(130)
        }
    }

    static func rate(_ value: Double) -> String {
        value >= 10 ? "\(Int(value.rounded()))" : "\((value * 10).rounded() / 10)"
    }

    static func seconds(_ duration: Duration) -> String {
        String(format: duration.seconds < 10 ? "%.2f s" : "%.0f s", duration.seconds)
    }
}

/// `tessera library search QUERY`.
struct LibrarySearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the indexed photos (of TESSERA_LIBRARY's folders when set, else of every indexed folder).",
        discussion: "Exit status: 0 done, 1 failure, 2 bad input.")

    @Argument(help: "What to search for (1–100 characters); every word is a prefix, all must match.")
    var query: String

    @Option(help: ArgumentHelp("Page number, 20 results a page (1–\(SearchRequest.maxPage)).", valueName: "n"))
    var page: String = "1"

    @Flag(
        help:
            "Print the API's JSON section (image URLs are local: references, unsigned; signed /img/ URLs with --server)."
    )
    var json = false

    @OptionGroup var common: CommonOptions
    @OptionGroup var shared: SharedIndexOptions
    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let request: SearchRequest
        do {
            request = try SearchRequest(query: query, scope: SectionID.local.rawValue, page: page)
        } catch {
            throw Exit.badInput(error.message)
        }
        let configuration = try shared.configuration(common)
        if let client = try remote.client(configuration) {
            // The server's `local` section: the folders it was started with.
            let response = try await Remote.search(request, on: client)
            if let error = response.sections.first?.error { throw Exit.failure(error.message) }
            print(response)
            return
        }
        let store = try await LibraryCommand.openStore(configuration)
        let roots: [String]
        do throws(LibraryError) {
            roots = configuration.libraries.isEmpty ? try await store.roots() : configuration.libraries
        } catch {
            throw Exit.failure(error.message)
        }
        // The same search the server runs, over the `local` source alone.
        let search = SearchService(
            sources: [LocalSource(store: store, roots: roots)], timeout: configuration.sourceTimeout)
        var response = await search.search(request)
        // As /api/search answers it; by identity only (no image cache is opened here, so no hashes), which
        // library photos never share: an empty list.
        response.groups = PictureGrouping.groups(of: response.sections.flatMap(\.items), hashes: [:])
            .map(SearchResponse.Group.init)
        if let error = response.sections.first?.error {
            throw Exit.failure(
                roots.isEmpty ? "nothing is indexed yet; run tessera library index DIR first." : error.message)
        }
        print(response)
    }

    private func print(_ response: SearchResponse) {
        if json {
            Terminal.out(String(decoding: JSONBody.encode(response), as: UTF8.self) + "\n")
        } else {
            Terminal.out(SearchTable.render(response))
        }
    }
}

/// Indexing progress on standard error: one line rewritten in place on a terminal, plain lines (at most
/// one a second) otherwise, so logs of scripted runs stay readable.
final class ProgressPrinter: Sendable {
    private let isTerminal: Bool
    private let state = Mutex<(lastLine: ContinuousClock.Instant?, lineOpen: Bool)>((nil, false))

    init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    func show(_ event: IndexEvent) {
        state.withLock { state in
            switch event {
            case .listed(let files, let toRead):
                write("Found \(files) files: \(files - toRead) unchanged, \(toRead) to read.", &state, final: true)
            case .warning(let warning):
                write("warning: \(warning)", &state, final: true)
            case .progress(let progress):
                let now = ContinuousClock.now
                let last = progress.done == progress.total
                if !isTerminal, !last, let previous = state.lastLine, now - previous < .seconds(1) { return }
                state.lastLine = now
                write("Indexing: \(progress.line)", &state, final: !isTerminal)
            }
        }
    }

    /// Ends an open progress line, so what follows starts on its own line.
    func finish() {
        state.withLock { state in
            if state.lineOpen { Terminal.error("\n") }
            state.lineOpen = false
        }
    }

    private func write(_ text: String, _ state: inout (lastLine: ContinuousClock.Instant?, lineOpen: Bool), final: Bool)
    {
        if isTerminal {
            // Carriage return and erase-line: the progress line is redrawn, a message replaces it.
            Terminal.error("\r\u{1B}[K" + text + (final ? "\n" : ""))
            state.lineOpen = !final
        } else {
            Terminal.error(text + "\n")
        }
    }
}

/// A task that may be asked to stop before it exists: it is cancelled as soon as it is set.
final class CancelLater<Success: Sendable>: Sendable {
    private let state = Mutex<(task: Task<Success, Never>?, cancelled: Bool)>((nil, false))

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.task
        }?.cancel()
    }

    func set(_ task: Task<Success, Never>) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }
}

/// The pipe `StopOnSignal`'s handler writes to: a C signal handler can reach nothing but globals, and writing
/// one byte is among the few things it may do.
nonisolated(unsafe) private var stopSignalPipe: Int32 = -1

/// Calls `onStop` on the first SIGINT or SIGTERM; a second one exits at once.
///
/// A real handler (`sigaction`) that writes to a pipe, read on a dispatch queue. Not a dispatch signal source
/// with the signal ignored, as on Apple platforms: on Linux an ignored signal that reaches a thread not blocking
/// it is thrown away, so some Ctrl-Cs went unseen and the run carried on to its end.
final class StopOnSignal {
    private let source: any DispatchSourceRead
    private let pipeEnds: (read: Int32, write: Int32)

    init(onStop: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [-1, -1]
        _ = ends.withUnsafeMutableBufferPointer { pipe($0.baseAddress) }
        pipeEnds = (ends[0], ends[1])
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        stopSignalPipe = ends[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(stopSignalPipe, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(SA_RESTART)
        for signalNumber in [SIGINT, SIGTERM] { sigaction(signalNumber, &action, nil) }
        // A thread that never blocks them, so the signals always have one to reach: Dispatch's and the image
        // library's threads block them, and whether any other thread leaves them open is not ours to know.
        let receiver = Thread {
            var signals = sigset_t()
            sigemptyset(&signals)
            for signalNumber in [SIGINT, SIGTERM] { sigaddset(&signals, signalNumber) }
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            while true { pause() }
        }
        receiver.start()

        let stopping = Flag()
        let readEnd = ends[0]
        source = DispatchSource.makeReadSource(
            fileDescriptor: readEnd, queue: DispatchQueue(label: "tessera.library.signals"))
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 16)
            let count = read(readEnd, &bytes, bytes.count)
            for _ in 0..<max(count, 0) {
                if stopping.raise() { exit(130) }
                Terminal.error("\nStopping after saving what was read (press Ctrl-C again to quit at once)…\n")
                onStop()
            }
        }
        source.resume()
    }

    /// Back to the default actions (Ctrl-C ends the process), and the pipe closed.
    func stop() {
        for signalNumber in [SIGINT, SIGTERM] { signal(signalNumber, SIG_DFL) }
        source.cancel()
        close(pipeEnds.read)
        close(pipeEnds.write)
    }

    private final class Flag: Sendable {
        private let raised = Atomic(false)

        /// Raises the flag; returns whether it was already raised.
        func raise() -> Bool { raised.exchange(true, ordering: .relaxed) }
    }
}
