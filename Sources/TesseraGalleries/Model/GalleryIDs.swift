/// Random ids: a prefix and 20 characters of lowercase base32 (100 bits), so ids cannot be guessed or
/// collide, and read well in URLs and logs.
enum GalleryIDs {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")

    static func gallery() -> String { "g_" + random() }
    static func item() -> String { "gi_" + random() }

    private static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt8(32)))] })
    }

    /// Whether `id` looks like one of ours (checked before it reaches SQL, for a clear 404).
    static func isValid(_ id: String, prefix: String) -> Bool {
        id.hasPrefix(prefix) && id.utf8.count == prefix.utf8.count + 20
            && id.dropFirst(prefix.count).allSatisfy { alphabet.contains($0) }
    }
}
