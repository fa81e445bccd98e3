/// The media route's limits (`TESSERA_PREVIEW_*`): how large a preview may be and how many stay in memory.
/// Previews share the image fetcher's address rules and time limits (`TESSERA_IMAGE_ALLOW_PRIVATE`).
public struct PreviewSettings: Sendable, Hashable {
    /// Largest preview fetched; iTunes' 30-second songs are about 1 MB, its film trailers up to about 20.
    public var maxBytes = 40 * 1024 * 1024
    /// Previews kept in memory to serve ranges from.
    public var memoryCacheBytes = 128 * 1024 * 1024

    public init() {}

    init(environment: [String: String]) throws(ConfigurationError) {
        func megabytes(_ name: String, _ range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw .invalid(
                    "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound) (got \"\(text)\").")
            }
            return value * 1024 * 1024
        }
        if let value = try megabytes("TESSERA_PREVIEW_MAX_MB", 1...1_024) { maxBytes = value }
        if let value = try megabytes("TESSERA_PREVIEW_MEMORY_MB", 0...65_536) { memoryCacheBytes = value }
    }
}
