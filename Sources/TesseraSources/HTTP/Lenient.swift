import TesseraCore

/// An integer that services send as a number or as a string (Flickr's sizes and counts).
public struct LenientInt: Decodable, Sendable, Hashable {
    public let value: Int?

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = nil
        } else if let int = try? container.decode(Int.self) {
            value = int
        } else if let double = try? container.decode(Double.self) {
            value = Int(exactly: double.rounded()) ?? nil
        } else if let string = try? container.decode(String.self) {
            value =
                Int(string.trimmingWhitespace)
                ?? Double(string.trimmingWhitespace).flatMap { Int(exactly: $0.rounded()) }
        } else {
            value = nil
        }
    }
}

/// A value shown as text whatever JSON type the service used for it (string, number or boolean).
public struct LenientString: Decodable, Sendable, Hashable {
    public let value: String?

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = nil
        } else if let string = try? container.decode(String.self) {
            value = string
        } else if let int = try? container.decode(Int.self) {
            value = String(int)
        } else if let double = try? container.decode(Double.self) {
            value = String(double)
        } else if let bool = try? container.decode(Bool.self) {
            value = bool ? "yes" : "no"
        } else {
            value = nil
        }
    }
}

/// One element of a list that is dropped, not fatal, when it cannot be decoded: one odd record
/// in a real response must not cost the whole page.
public struct Skippable<Wrapped: Decodable>: Decodable {
    public let value: Wrapped?

    public init(from decoder: any Decoder) throws {
        value = try? Wrapped(from: decoder)
    }
}

extension Array {
    /// The elements that decoded.
    public func decoded<W>() -> [W] where Element == Skippable<W> {
        compactMap(\.value)
    }
}
