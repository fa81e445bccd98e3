/// The id of the HTTP request the current task works for, so every log line the request causes (down to
/// the source calls and image fetches, in child tasks) can carry it without passing it through every call.
/// Set by the server's `RequestIDMiddleware`; read by the log metadata provider installed at bootstrap.
public enum RequestID {
    @TaskLocal public static var current: String?

    /// Longest id taken from a client: enough for a UUID or a trace id, short enough to log on every line.
    public static let maxLength = 128

    /// `header` when it is a usable id (1 to 128 visible ASCII characters), else `nil`: anything else
    /// could forge log lines or bloat every one of them.
    public static func sanitized(_ header: String?) -> String? {
        guard let header, !header.isEmpty, header.utf8.count <= maxLength,
            header.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        return header
    }

    /// A new id: 16 random hex digits (64 bits), short to read and unlikely to repeat within a log's life.
    public static func make() -> String {
        let value = UInt64.random(in: .min ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
