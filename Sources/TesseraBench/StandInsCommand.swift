import ArgumentParser
import Foundation
import TesseraTestSupport

/// The benchmarks' stand-in providers, on their own, so the web app can be tried (and looked at) with
/// pages of results and images but without API keys or a network.
struct StandInsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stand-ins",
        abstract: "Runs stand-ins for every provider and prints the environment that points tessera serve at them.")

    @Option(help: "Milliseconds every stand-in waits before answering.")
    var delay = 150

    @Flag(help: "A picture of its own at every image address (as the paint benchmark has), not one for all.")
    var distinct = false

    func run() async throws {
        let standIns = StandInSet()
        for provider in standIns.list { provider.state.delay = .milliseconds(delay) }
        let server = try await StandInServer.start(standIns.list)
        if distinct { server.images = StandInImage.distinct(for:) }
        let exports = server.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        // Written at once (print is buffered when piped), so scripts can read it while this runs.
        let text =
            "# stand-ins on \(server.origin); start Tessera with:\nenv \(exports.joined(separator: " ")) swift run tessera serve\n"
        FileHandle.standardOutput.write(Data(text.utf8))
        // Until interrupted.
        while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
    }
}
