import Synchronization

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

    /// A new id: 16 hex digits (64 bits), short to read, and unique within the process: a counter from a
    /// random start, scrambled by SplitMix64's finalizer (a bijection) so ids do not look sequential.
    /// Cheaper than a random number per request, which is a system call on Linux.
    public static func make() -> String {
        var value = seed &+ counter.wrappingAdd(1, ordering: .relaxed).oldValue &* 0x9E37_79B9_7F4A_7C15
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        value ^= value >> 31
        let hex = String(value, radix: 16)
        return hex.count == 16 ? hex : String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static let seed = UInt64.random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)
}
