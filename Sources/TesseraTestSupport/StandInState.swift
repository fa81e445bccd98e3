import Foundation
import Hummingbird
import Synchronization

/// How a stand-in answers: the provider's normal answer, or one of the failures clients must survive.
public enum StandInBehavior: Sendable, Equatable {
    case normal
    /// The provider's own "invalid API key" answer.
    case invalidKey
    /// HTTP 429 (or the provider's own throttling answer), with `Retry-After` when given.
    case rateLimited(retryAfter: Int?)
    /// HTTP 500 with an HTML error page.
    case serverError
    /// HTTP 200 with a body that is not the provider's JSON.
    case malformed
    /// Never answers (until the server stops).
    case stall
    /// HTTP `status` with `body` exactly as given, and `headers`: a test's own answer in the service's wire
    /// format, extreme numbers and all.
    case raw(body: String, status: Int = 200, headers: [String: String] = [:])
}

/// One request as the stand-in received it, for tests to assert on.
public struct RecordedRequest: Sendable {
    public let path: String
    /// The raw query string, exactly as sent.
    public let rawQuery: String
    /// Query parameters, percent-decoded (`+` decoded as a space).
    public let query: [String: String]
    public let headers: [String: String]

    public subscript(_ name: String) -> String? { query[name] }
}

/// What a stand-in does and what it saw. Tests change it between requests.
public final class StandInState: Sendable {
    private struct Values {
        var behavior = StandInBehavior.normal
        var behaviorForQuery: [String: StandInBehavior] = [:]
        var behaviorForPage: [String: StandInBehavior] = [:]
        var delay = Duration.zero
        var delayForQuery: [String: Duration] = [:]
        var requests: [RecordedRequest] = []
        var corpus = Corpus()
        var stopFlag: StopFlag?
        var memoizesAnswers = false
        var retryAfterAsDate = false
        var answers: [String: Response] = [:]
    }

    private let values = Mutex(Values())

    public init() {}

    /// The answer for every request whose query has no behaviour of its own.
    public var behavior: StandInBehavior {
        get { values.withLock { $0.behavior } }
        set { values.withLock { $0.behavior = newValue } }
    }

    /// `Retry-After` as an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`) instead of seconds.
    public var retryAfterAsDate: Bool {
        get { values.withLock { $0.retryAfterAsDate } }
        set { values.withLock { $0.retryAfterAsDate = newValue } }
    }

    /// Delay before every answer.
    public var delay: Duration {
        get { values.withLock { $0.delay } }
        set { values.withLock { $0.delay = newValue } }
    }

    public func setBehavior(_ behavior: StandInBehavior, forQuery query: String) {
        values.withLock { $0.behaviorForQuery[query.lowercased()] = behavior }
    }

    /// The answer for every request whose `page` parameter is `page` (the services that page by number), unless
    /// its query has a behaviour of its own: a later page that fails after the first answered.
    public func setBehavior(_ behavior: StandInBehavior, forPage page: Int) {
        values.withLock { $0.behaviorForPage[String(page)] = behavior }
    }

    public func setDelay(_ delay: Duration, forQuery query: String) {
        values.withLock { $0.delayForQuery[query.lowercased()] = delay }
    }

    /// The results each query has. Defaults to `Corpus.defaultTotal` generated records.
    public var corpus: Corpus {
        get { values.withLock { $0.corpus } }
        set { values.withLock { $0.corpus = newValue } }
    }

    /// For benchmarks: answer every search term with the answer made for the first one asked with the same
    /// other parameters, so the stand-in's own rendering does not compete for the CPU with what is measured.
    public var memoizesAnswers: Bool {
        get { values.withLock { $0.memoizesAnswers } }
        set { values.withLock { $0.memoizesAnswers = newValue } }
    }

    /// The remembered answer for `key`, or `make()`'s, remembered when memoizing.
    func answer(key: @autoclosure () -> String, make: () -> Response) -> Response {
        guard memoizesAnswers else { return make() }
        let key = key()
        if let answer = values.withLock({ $0.answers[key] }) { return answer }
        let answer = make()
        values.withLock { $0.answers[key] = answer }
        return answer
    }

    public var requests: [RecordedRequest] { values.withLock { $0.requests } }
    public var requestCount: Int { values.withLock { $0.requests.count } }
    public func clearRequests() { values.withLock { $0.requests.removeAll() } }

    var stopFlag: StopFlag? {
        get { values.withLock { $0.stopFlag } }
        set { values.withLock { $0.stopFlag = newValue } }
    }

    /// Records `request` and returns how to answer it (`searchTerm` picks per-query behaviour).
    func receive(_ request: Request, searchTerm: String?) -> (StandInBehavior, Duration) {
        let recorded = RecordedRequest(
            path: request.uri.path, rawQuery: request.uri.query ?? "", query: Self.decodeQuery(request.uri.query),
            headers: Dictionary(
                request.headers.map { ($0.name.canonicalName.lowercased(), $0.value) }, uniquingKeysWith: { $1 }))
        return values.withLock { values in
            values.requests.append(recorded)
            let term = searchTerm?.lowercased() ?? ""
            let behavior =
                values.behaviorForQuery[term] ?? recorded["page"].flatMap { values.behaviorForPage[$0] }
                ?? values.behavior
            return (behavior, values.delayForQuery[term] ?? values.delay)
        }
    }

    /// Waits until `deadline`, or less once the server stops, so shutdown never waits for a stalled answer.
    func wait(until deadline: ContinuousClock.Instant) async {
        if let stopFlag {
            await stopFlag.wait(until: deadline)
        } else {
            try? await Task.sleep(until: deadline)
        }
    }

    /// Waits until the delay for `searchTerm` has passed since `arrived`, reading the delay again as it goes:
    /// a test can hold an answer with a long delay and release it, already waiting, by lowering the delay.
    func waitOutDelay(since arrived: ContinuousClock.Instant, searchTerm: String?) async {
        let term = searchTerm?.lowercased() ?? ""
        while !Task.isCancelled, stopFlag?.isSet != true {
            let delay = values.withLock { $0.delayForQuery[term] ?? $0.delay }
            let left = arrived + delay - ContinuousClock.now
            guard left > .zero else { return }
            try? await Task.sleep(for: min(.milliseconds(20), left))
        }
    }

    static func decodeQuery(_ query: String?) -> [String: String] {
        var result: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecode(String(parts[0]))
            let value = parts.count > 1 ? percentDecode(String(parts[1])) : ""
            result[name] = value
        }
        return result
    }

    static func percentDecode(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
