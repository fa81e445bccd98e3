/// Why one source could not answer. Each case names the source and says what the user can do;
/// the search fails only that source's section with it.
public enum SourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source is switched off (usually a missing API key). Shown as disabled, not as a failure.
    case disabled(SourceID, reason: String)
    /// The service refused the API key.
    case invalidKey(SourceID, keyVariable: String?)
    /// The service asked us to slow down; `retryAfter` is in seconds when the service said.
    case rateLimited(SourceID, retryAfter: Int?)
    /// Tessera has spent the requests the service's terms allow for now (its request budget, shared by every
    /// user of the server); one more fits in `retryAfter` seconds. Nothing was sent.
    case overBudget(SourceID, retryAfter: Int)
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
            .overBudget(let source, _), .serviceError(let source, _, _), .timeout(let source, _),
            .badResponse(let source, _),
            .unreachable(let source, _), .rejected(let source, _), .notFound(let source, _):
            source
        }
    }

    /// Stable snake_case code for the API's error shape.
    public var code: String {
        switch self {
        case .disabled: "source_disabled"
        case .invalidKey: "invalid_key"
        case .rateLimited, .overBudget: "rate_limited"
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
            let when = retryAfter.map { "in " + Self.wait($0) } ?? "in a few minutes"
            return "\(source.title) is limiting how often Tessera may ask; try again \(when)."
        case .overBudget(let source, let retryAfter):
            return "Tessera has sent \(source.title) all the requests its terms allow for now; try again in "
                + Self.wait(retryAfter) + "."
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

    /// Seconds to wait, as a person reads them: `42 s`, `15 min`, `2 h 5 min`.
    static func wait(_ seconds: Int) -> String {
        if seconds < 120 { return "\(max(seconds, 0)) s" }
        // Whole minutes rounded up, without the `+ 59` that overflows at `Int.max`.
        let minutes = seconds / 60 + (seconds % 60 == 0 ? 0 : 1)
        if minutes < 120 { return "\(minutes) min" }
        return "\(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min")
    }

    /// Seconds until the source may be asked again, when it is known.
    public var retryAfter: Int? {
        switch self {
        case .rateLimited(_, let seconds): seconds
        case .overBudget(_, let seconds): seconds
        default: nil
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// The `{"code", "message"}` pair the API puts under `error`, with `retryAfter` (whole seconds) when a
/// section failed with `rate_limited` and the time to try again is known.
public struct ErrorInfo: Sendable, Hashable, Codable {
    public var code: String
    public var message: String
    public var retryAfter: Int?

    public init(code: String, message: String, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public init(_ error: SourceError) {
        self.init(code: error.code, message: error.message, retryAfter: error.retryAfter)
    }
}
