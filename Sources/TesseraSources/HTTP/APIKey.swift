import TesseraCore

/// A service's API key as configured: a missing or empty key switches the source off with a reason the
/// user can act on ("set PIXABAY_API_KEY to enable"); it is never an error.
public struct APIKey: Sendable, Hashable {
    public let value: String?
    /// The environment variable that holds it.
    public let variable: String

    public init(_ value: String?, variable: String) {
        self.value = value.flatMap { $0.isEmpty ? nil : $0 }
        self.variable = variable
    }

    public var availability: SourceAvailability {
        value == nil ? .disabled(reason: "set \(variable) to enable") : .enabled
    }

    /// The key, or `.disabled` for `source` when there is none, so no request goes out without it.
    public func required(by source: SourceID) throws(SourceError) -> String {
        guard let value else { throw .disabled(source, reason: "set \(variable) to enable") }
        return value
    }
}
