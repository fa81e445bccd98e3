import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TesseraClient
import TesseraServer
import TesseraTestSupport
import Testing

/// The real app on a loopback port, pointed at stand-ins for the providers, with its own empty data folder,
/// and a `TesseraClient` for it (with `token` when the server has one).
func withServer(
    token: String? = nil, clientToken: String? = nil, extraEnvironment: [String: String] = [:],
    _ body: @Sendable (TesseraClient, StandInServer) async throws -> Void
) async throws {
    let standIns = try await StandInServer.start(StandInSet().list)
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-client-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: data) }
    var environment = standIns.environment
    environment["TESSERA_DATA"] = data.path
    environment["TESSERA_PORT"] = "0"
    environment["TESSERA_SOURCE_TIMEOUT"] = "10"
    environment["TESSERA_SAMPLES"] = "none"
    if let token { environment["TESSERA_TOKEN"] = token }
    environment.merge(extraEnvironment) { _, new in new }
    var quiet = Logger(label: "tessera-client-test")
    quiet.logLevel = .critical
    do {
        let configuration = try AppConfiguration(environment: environment)
        let app = buildApplication(try await AppEnvironment.live(configuration, logger: quiet))
        try await app.test(.live) { testClient in
            let port = try #require(testClient.port)
            let client = TesseraClient(
                serverURL: URL(string: "http://127.0.0.1:\(port)")!, token: clientToken ?? token)
            try await body(client, standIns)
        }
    } catch {
        await standIns.stop()
        throw error
    }
    await standIns.stop()
}

/// The error `body` throws, for `#expect` on its case (nil when it does not throw).
func clientError<T>(_ body: () async throws(TesseraClientError) -> T) async -> TesseraClientError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
