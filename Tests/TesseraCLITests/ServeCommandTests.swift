import Foundation
import Testing

/// `tessera serve` ends through `Exit` like every other command: bad settings are bad input (status 2).
@Suite("tessera serve with bad settings, run as a process")
struct ServeCommandTests {
    @Test(arguments: [
        (["serve", "--host", "0.0.0.0", "--port", "0"], "TESSERA_TOKEN"),
        (["serve", "--port", "eighty"], "port"),
        (["serve", "--source-timeout", "soon"], "source timeout"),
    ])
    func badSettingsExitWithStatus2AndTheReason(arguments: [String], reason: String) async throws {
        let result = try await CLIProcess.run(arguments, environment: ["TESSERA_DATA": "/nonexistent/never-created"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: "), "\(result.stderr)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
