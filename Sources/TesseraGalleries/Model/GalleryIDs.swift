/// A gallery's id: `g_` and 20 characters of lowercase base32 (100 bits), so ids cannot be guessed or
/// collide, and read well in URLs and logs. Written in JSON as the plain string.
public struct GalleryID: RandomID {
    public static let prefix = "g_"
    public let rawValue: String

    public init?(rawValue: String) {
        guard RandomIDText.isValid(rawValue, prefix: Self.prefix) else { return nil }
        self.rawValue = rawValue
    }

    /// A new random id.
    public static func random() -> GalleryID { GalleryID(unchecked: prefix + RandomIDText.random()) }

    /// An id read back from the database (either engine), where only valid ids were ever written.
    public init(unchecked rawValue: String) { self.rawValue = rawValue }
}

/// A gallery item's id: `gi_` and 20 characters of lowercase base32, like `GalleryID`.
public struct GalleryItemID: RandomID {
    public static let prefix = "gi_"
    public let rawValue: String

    public init?(rawValue: String) {
        guard RandomIDText.isValid(rawValue, prefix: Self.prefix) else { return nil }
        self.rawValue = rawValue
    }

    /// A new random id.
    public static func random() -> GalleryItemID { GalleryItemID(unchecked: prefix + RandomIDText.random()) }

    /// An id read back from the database (either engine), where only valid ids were ever written.
    public init(unchecked rawValue: String) { self.rawValue = rawValue }
}

/// What the two id types share: parsed once where they come in (a URL, an argument), then trusted.
public protocol RandomID: RawRepresentable<String>, Sendable, Hashable, Codable, CustomStringConvertible {
    static var prefix: String { get }
}

extension RandomID {
    /// The id `text` is, or `nil` when it is not one of ours (a clear 404 before anything reaches SQL).
    public init?(_ text: String) { self.init(rawValue: text) }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = Self(rawValue: text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "\"\(text.prefix(60))\" is not a \(Self.prefix) id"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The random part of ids: 20 characters of lowercase base32.
enum RandomIDText {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")

    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt8(32)))] })
    }

    static func isValid(_ id: String, prefix: String) -> Bool {
        id.hasPrefix(prefix) && id.utf8.count == prefix.utf8.count + 20
            && id.dropFirst(prefix.count).allSatisfy { alphabet.contains($0) }
    }
}
