import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TesseraCore
import TesseraImageProxy
import TesseraTestSupport
import Testing

/// A fault of the server itself is a `500` that tells the client nothing of it, and logs all of it.
@Suite("Server faults over HTTP")
struct ServerFaultTests {
    @Test func aFaultIsAnsweredWithoutItsDetailAndLoggedWithIt() async throws {
        // Given a stored copy the server cannot read: its name is in the data folder, but as a folder.
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-fault-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let hash = String(repeating: "5e", count: 32)
        let copy = data.appendingPathComponent("gallery-images/5e/\(hash)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        let secret = "server-fault-test-secret"
        let signer = ImageURLSigner(
            secret: try ImageSecret.load(configured: secret, dataDirectory: FileManager.default.temporaryDirectory))
        let url = signer.link(ImageReference.stored(hash: hash).string, variant: .original)
        let log = LogCapture()

        try await withTessera(
            StandInSet().list, extraEnvironment: ["TESSERA_SECRET": secret], dataFolder: data, logger: log.logger()
        ) { client, _ in
            // When a client asks for its original.
            let response = try await client.execute(uri: url, method: .get)

            // Then the answer is a 500 in the API's shape with a generic sentence and nothing of the cause.
            #expect(response.status == .internalServerError)
            let error = try response.apiError()
            #expect(error.code == "image_failed")
            #expect(error.message == "The image could not be prepared on the server; the log says more.")
            for detail in [hash, data.path, "gallery-images", "directory", "Error", "errno"] {
                #expect(!response.text.contains(detail), "\(detail) in \(response.text)")
            }
            // And the log has one error line with the request and the underlying error.
            let lines = log.entries.filter { $0.level == .error }
            #expect(lines.count == 1, "\(lines)")
            let line = try #require(lines.first)
            #expect(line.metadata["method"] == "GET")
            #expect(line.metadata["path"] == String(url.prefix(300)))
            #expect(line.metadata["status"] == "500")
            #expect(line.metadata["code"] == "image_failed")
            #expect(line.metadata["error"]?.isEmpty == false)
            #expect(line.metadata["error"]?.contains(hash) == true, "the cause itself: \(line.metadata)")
        }
    }

    @Test func aStoredCopyThatIsNotThereIsNotFound() async throws {
        let secret = "server-fault-test-secret"
        let signer = ImageURLSigner(
            secret: try ImageSecret.load(configured: secret, dataDirectory: FileManager.default.temporaryDirectory))
        let log = LogCapture()
        try await withTessera(StandInSet().list, extraEnvironment: ["TESSERA_SECRET": secret], logger: log.logger()) {
            client, _ in
            for reference in ["stored:" + String(repeating: "0", count: 64), "stored:not-a-hash"] {
                for variant in [ImageVariant.thumb, .original] {
                    let response = try await client.execute(uri: signer.link(reference, variant: variant), method: .get)
                    #expect(response.status == .notFound, "\(reference) \(variant)")
                    #expect(try response.apiError().code == "image_not_found", "\(reference) \(variant)")
                }
            }
            #expect(log.entries.filter { $0.level == .error }.isEmpty, "a 4xx is not a fault of the server")
        }
    }
}
