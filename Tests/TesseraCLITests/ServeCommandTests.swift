import Foundation
import Testing

/// `tessera serve` ends through `Exit` like every other command: bad settings are bad input (status 2).
@Suite("tessera serve with bad settings, run as a process")
struct ServeCommandTests {
    @Test(arguments: [
        (["serve", "--host", "0.0.0.0", "--port", "0"], "TESSERA_TOKEN"),
        (["serve", "--host", "0.0.0.0", "--port", "0", "--auth", "none"], "TESSERA_AUTH=none"),
        (["serve", "--port", "0", "--auth", "open"], "TESSERA_AUTH must be none, token or accounts"),
        (["serve", "--port", "0", "--auth", "token"], "needs TESSERA_TOKEN"),
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

@Suite("tessera serve logs")
struct ServeLogTests {
    @Test func jsonFormatWritesOneObjectPerLineOnStandardError() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-json-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await ServerProcess.start(
            [], environment: ["TESSERA_DATA": data.path, "TESSERA_SAMPLES": "none", "TESSERA_LOG_FORMAT": "json"])
        let stderr = server.child.stderr
        #expect(await server.stop() == 0)
        let lines = stderr.split(separator: "\n")
        #expect(!lines.isEmpty, "\(stderr)")
        for line in lines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(object["timestamp"] is String && object["level"] is String && object["message"] is String)
        }
        #expect(stderr.contains(#""message":"connections""#), "\(stderr)")
        // The tessera executable, too, keeps libvips' vector code on with orc's frees locked (COrcLock).
        let imaging = try #require(lines.first { $0.contains(#""message":"imaging""#) }, "\(stderr)")
        #expect(imaging.contains(#""vector code":"on""#), "\(imaging)")
    }

    @Test func anUnknownLogFormatIsRefused() async throws {
        let result = try await CLIProcess.run(
            ["serve"], environment: ["TESSERA_DATA": "/nonexistent/never-created", "TESSERA_LOG_FORMAT": "xml"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("TESSERA_LOG_FORMAT must be text or json"), "\(result.stderr)")
    }
}
