import Foundation
import Logging
import Synchronization
import TesseraCore
import TesseraServer
import Testing

/// `TESSERA_LOG_FORMAT=json`: each line one JSON object a collector can parse, whatever the text holds.
@Suite("JSON log lines")
struct JSONLogHandlerTests {
    final class Lines: Sendable {
        let kept = Mutex<[String]>([])
        func logger() -> Logger {
            var logger = Logger(label: "tessera.json") { label in
                JSONLogHandler(label: label, metadataProvider: .requestID) { line in
                    self.kept.withLock { $0.append(line) }
                }
            }
            logger.logLevel = .debug
            return logger
        }
        func objects() throws -> [[String: Any]] {
            try kept.withLock { $0 }.map { line in
                #expect(line.hasSuffix("\n") && line.dropLast().firstIndex(of: "\n") == nil, "\(line)")
                return try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
        }
    }

    @Test func linesParseAndKeepEveryCharacter() throws {
        let lines = Lines()
        let tricky =
            "quote \" backslash \\ newline \n tab \t cr \r nul \u{0} bell \u{7} del \u{7F} ls \u{2028} café 東京 🦊"
        lines.logger().warning(
            "\(tricky)",
            metadata: [
                "tricky": "\(tricky)", "count": "3", "nested": ["inner": "x\ny"], "list": ["a", "b"],
                "message": "collides", "source": "pixabay",
            ])
        let object = try #require(try lines.objects().first)
        #expect(object["message"] as? String == tricky)
        #expect(object["tricky"] as? String == tricky)
        #expect(object["level"] as? String == "warning")
        #expect(object["label"] as? String == "tessera.json")
        #expect(object["count"] as? String == "3")
        #expect(object["nested.inner"] as? String == "x\ny")
        #expect(object["list"] as? String == #"["a", "b"]"#)
        #expect(object["metadata.message"] as? String == "collides")
        #expect(object["source"] as? String == "pixabay", "the sources' own key keeps its name")
        #expect(object["module"] as? String == "TesseraServerTests")
        let timestamp = try #require(object["timestamp"] as? String)
        #expect(try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(timestamp) <= Date())
    }

    @Test func theRequestIdIsAddedWhileOneIsSet() throws {
        let lines = Lines()
        let logger = lines.logger()
        logger.info("outside")
        RequestID.$current.withValue("r-1") { logger.info("inside") }
        let objects = try lines.objects()
        #expect(objects.count == 2)
        #expect(objects.first?["request_id"] == nil)
        #expect(objects.last?["request_id"] as? String == "r-1")
    }
}
