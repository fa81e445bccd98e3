import Foundation
import Logging

/// A swift-log handler that writes one JSON object per line (`TESSERA_LOG_FORMAT=json`), for collectors
/// such as journald's JSON export, Loki or Vector:
///
///     {"timestamp":"2026-11-24T03:30:00.123Z","level":"info","label":"tessera","message":"…","request_id":"…",…}
///
/// Metadata is flattened into string fields beside the fixed ones (nested dictionaries as `key.sub`);
/// a metadata key that collides with a fixed field is written as `metadata.key`. `module` (swift-log's
/// `source`, named apart from the sources' own `source` key), `file`, `function` and `line` close each object.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    private let label: String
    private let output: @Sendable (String) -> Void

    /// A handler that passes each finished line (with its newline) to `output`.
    public init(
        label: String, metadataProvider: Logger.MetadataProvider? = nil,
        output: @escaping @Sendable (String) -> Void
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.output = output
    }

    /// A handler writing to standard error, one `write` per line so lines from many threads never interleave.
    public static func standardError(label: String, metadataProvider: Logger.MetadataProvider? = nil) -> Self {
        Self(label: label, metadataProvider: metadataProvider) { line in
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let explicit = event.metadata { all.merge(explicit) { _, new in new } }
        output(line(event, metadata: all, date: Date()))
    }

    private static let fixedKeys: Set<String> = [
        "timestamp", "level", "label", "message", "module", "file", "function", "line",
    ]

    /// The JSON line for `event`, ending in a newline.
    func line(_ event: LogEvent, metadata: Logger.Metadata, date: Date) -> String {
        var json = "{"
        func field(_ key: String, _ value: String) {
            if json.utf8.count > 1 { json += "," }
            Self.appendQuoted(key, to: &json)
            json += ":"
            Self.appendQuoted(value, to: &json)
        }
        field("timestamp", date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        field("level", event.level.rawValue)
        field("label", label)
        field("message", event.message.description)
        var flat: [(String, String)] = []
        Self.flatten(metadata, prefix: "", into: &flat)
        for (key, value) in flat.sorted(by: { $0.0 < $1.0 }) {
            field(Self.fixedKeys.contains(key) ? "metadata.\(key)" : key, value)
        }
        field("module", event.source)
        field("file", event.file)
        field("function", event.function)
        field("line", String(event.line))
        json += "}\n"
        return json
    }

    private static func flatten(_ metadata: Logger.Metadata, prefix: String, into flat: inout [(String, String)]) {
        for (key, value) in metadata {
            let name = prefix + key
            switch value {
            case .dictionary(let nested): flatten(nested, prefix: name + ".", into: &flat)
            default: flat.append((name, value.description))
            }
        }
    }

    /// Appends `text` as a JSON string: quotes, backslashes and every control character escaped; the rest,
    /// non-ASCII included, as UTF-8 (valid JSON, and readable in a terminal). U+2028 and U+2029 are escaped
    /// too, for consumers that treat them as line ends.
    static func appendQuoted(_ text: String, to json: inout String) {
        json += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case "\u{2028}", "\u{2029}", "\u{7F}",
                _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}
