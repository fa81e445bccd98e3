/// Why one source could not answer. Each case names the source and says what the user can do;
/// the search fails only that source's section with it.
public enum SourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source is switched off (usually a missing API key). Shown as disabled, not as a failure.
    case disabled(SourceID, reason: String)
    /// The service refused the API key.
    case invalidKey(SourceID, keyVariable: String?)
    /// The service asked us to slow down; `retryAfter` is in seconds when the service said.
    case rateLimited(SourceID, retryAfter: Int?)
    /// The service answered with a server error (5xx) or an error of its own.
    case serviceError(SourceID, status: Int?, detail: String?)
    /// No answer within the per-source time limit.
    case timeout(SourceID, seconds: Double)
    /// The answer could not be read.
    case badResponse(SourceID, detail: String)
    /// The connection failed before any answer.
    case unreachable(SourceID, detail: String)
    /// The service rejected the request itself (for example a page past its limit).
    case rejected(SourceID, detail: String)
    /// The item does not exist (any more) at the source.
    case notFound(SourceID, id: String)

    public var source: SourceID {
        switch self {
        case .disabled(let source, _), .invalidKey(let source, _), .rateLimited(let source, _),
            .serviceError(let source, _, _), .timeout(let source, _), .badResponse(let source, _),
            .unreachable(let source, _), .rejected(let source, _), .notFound(let source, _):
            source
        }
    }

    /// Stable snake_case code for the API's error shape.
    public var code: String {
        switch self {
        case .disabled: "source_disabled"
        case .invalidKey: "invalid_key"
        case .rateLimited: "rate_limited"
        case .serviceError: "service_error"
        case .timeout: "timeout"
        case .badResponse: "bad_response"
        case .unreachable: "unreachable"
        case .rejected: "source_rejected"
        case .notFound: "not_found"
        }
    }

    /// A sentence a person can act on.
    public var message: String {
        switch self {
        case .disabled(let source, let reason):
            return "\(source.title) is disabled: \(reason)."
        case .invalidKey(let source, let variable):
            let fix = variable.map { "check \($0)" } ?? "check its configuration"
            return "\(source.title) rejected the API key; \(fix) and restart Tessera."
        case .rateLimited(let source, let retryAfter):
            let when = retryAfter.map { "in \($0) s" } ?? "in a few minutes"
            return "\(source.title) is limiting how often Tessera may ask; try again \(when)."
        case .serviceError(let source, let status, let detail):
            let what = status.map { "HTTP \($0)" } ?? detail ?? "an error"
            return "\(source.title) is having trouble (\(what)); try again later."
        case .timeout(let source, let seconds):
            return "\(source.title) did not answer within \(Self.format(seconds)) s; try again later"
                + " or raise TESSERA_SOURCE_TIMEOUT."
        case .badResponse(let source, _):
            return "\(source.title) sent an answer Tessera could not read; try again later."
        case .unreachable(let source, _):
            return "Tessera could not reach \(source.title); check the network connection"
                + " (and TESSERA_\(source.rawValue.uppercased())_URL if it is set)."
        case .rejected(let source, let detail):
            return "\(source.title) rejected the request: \(detail)"
        case .notFound(let source, let id):
            return "\(source.title) has no item \(id)."
        }
    }

    public var description: String {
        switch self {
        case .badResponse(_, let detail), .unreachable(_, let detail):
            "\(message) (\(detail))"
        default:
            message
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// The `{"code", "message"}` pair the API puts under `error`.
public struct ErrorInfo: Sendable, Hashable, Codable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public init(_ error: SourceError) {
        self.init(code: error.code, message: error.message)
    }
}
