import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `/api/health` as a load balancer sees it: `503` naming the part that is down while the data folder or the
/// database file is unusable, `200` again once it is back (docs/deploy.md). The answer is at most a second
/// old, so each change is waited for, with a generous bound.
@Suite("Readiness over HTTP")
struct ReadinessTests {
    @Test(.timeLimit(.minutes(1))) func healthIs503WhileTheDataFolderOrTheDatabaseIsUnusable() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-ready-\(UUID().uuidString)")
        let aside = data.appendingPathExtension("aside")
        defer {
            try? FileManager.default.removeItem(at: data)
            try? FileManager.default.removeItem(at: aside)
        }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try await withTessera([], dataFolder: data) { client, _ in
            try await Self.expectHealth(client, .ok)

            // The data folder moved away, then a file in its place.
            try FileManager.default.moveItem(at: data, to: aside)
            try await Self.expectHealth(client, .serviceUnavailable, code: "data_folder_unavailable")
            try Data("not a folder".utf8).write(to: data)
            try await Self.expectHealth(client, .serviceUnavailable, code: "data_folder_unavailable")
            try FileManager.default.removeItem(at: data)
            try FileManager.default.moveItem(at: aside, to: data)
            try await Self.expectHealth(client, .ok)

            // The database file moved away (its open connections would go on writing to the moved file),
            // then something that is not a database in its place.
            let database = data.appendingPathComponent("tessera.sqlite")
            try FileManager.default.moveItem(at: database, to: aside)
            try await Self.expectHealth(client, .serviceUnavailable, code: "database_unavailable")
            try Data(repeating: 0x41, count: 4096).write(to: database)
            try await Self.expectHealth(client, .serviceUnavailable, code: "database_unavailable")
            try FileManager.default.removeItem(at: database)
            try FileManager.default.moveItem(at: aside, to: database)
            try await Self.expectHealth(client, .ok)
        }
    }

    /// Polls `/api/health` (up to 15 seconds) until it answers `status`; then checks the answer's shape.
    static func expectHealth(
        _ client: any TestClientProtocol, _ status: HTTPResponse.Status, code: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        var answer = try await client.execute(uri: "/api/health", method: .get)
        let deadline = ContinuousClock.now + .seconds(15)
        while answer.status != status && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            answer = try await client.execute(uri: "/api/health", method: .get)
        }
        #expect(answer.status == status, "\(answer.text)", sourceLocation: sourceLocation)
        if let code {
            let error = try answer.apiError()
            #expect(error.code == code, sourceLocation: sourceLocation)
            #expect(
                !error.message.contains("/"), "no paths for a client without a token", sourceLocation: sourceLocation)
        } else {
            #expect(
                answer.text == #"{"status":"ok","dataFolder":"ok","database":"ok"}"#, sourceLocation: sourceLocation)
        }
    }
}
