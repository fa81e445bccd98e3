import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TesseraCore
import TesseraServer
import TesseraTestSupport
import Testing

/// The real app, over real HTTP, pointed at stand-ins for the providers, with its own empty data folder.
func withTessera(
    _ providers: [any StandInProvider], sourceTimeout: String = "10", extraEnvironment: [String: String] = [:],
    dataFolder: URL? = nil, standIns: StandInServer? = nil, logger: Logger? = nil,
    now: @escaping @Sendable () -> Date = Date.init,
    _ body: @Sendable (any TestClientProtocol, StandInServer) async throws -> Void
) async throws {
    let ownsStandIns = standIns == nil
    let server = if let standIns { standIns } else { try await StandInServer.start(providers) }
    let data =
        dataFolder ?? FileManager.default.temporaryDirectory.appendingPathComponent("tessera-test-\(UUID().uuidString)")
    defer { if dataFolder == nil { try? FileManager.default.removeItem(at: data) } }
    var environment = server.environment
    environment["TESSERA_DATA"] = data.path
    environment["TESSERA_PORT"] = "0"
    environment["TESSERA_SOURCE_TIMEOUT"] = sourceTimeout
    // No sample photos unless a test asks for a library: searches stay about the stand-ins.
    environment["TESSERA_SAMPLES"] = "none"
    environment.merge(extraEnvironment) { _, new in new }
    let configuration = try AppConfiguration(environment: environment)
    var quiet = Logger(label: "tessera-test")
    quiet.logLevel = .critical
    let app = buildApplication(try await AppEnvironment.live(configuration, logger: logger ?? quiet, now: now))
    do {
        try await app.test(.live) { client in try await body(client, server) }
    } catch {
        if ownsStandIns { await server.stop() }
        throw error
    }
    if ownsStandIns { await server.stop() }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    func json<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    /// The `{"error": {...}}` body of an error answer.
    func apiError() throws -> ErrorInfo {
        struct Envelope: Decodable { let error: ErrorInfo }
        return try json(Envelope.self).error
    }
}

/// Parses a server-sent event stream into (event, data) pairs.
func serverSentEvents(_ text: String) -> [(event: String, data: String)] {
    text.components(separatedBy: "\n\n").compactMap { block in
        var event = "message"
        var data: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
        }
        return data.isEmpty ? nil : (event, data.joined(separator: "\n"))
    }
}

/// Percent-encodes a query value for a test URL.
func encoded(_ value: String) -> String {
    value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
}

/// Runs blocking socket calls on a thread of their own: on a machine with two cores, a test blocking in
/// `recv` on the cooperative pool would starve the server it is waiting for.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
