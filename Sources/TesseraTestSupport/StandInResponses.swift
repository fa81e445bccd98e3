import Foundation
import HTTPTypes
import Hummingbird
import TesseraCore

/// Building blocks every provider stand-in answers with.
enum StandInResponse {
    static func json(_ object: Any, status: HTTPResponse.Status = .ok, contentType: String = "application/json")
        -> Response
    {
        raw(jsonText(object), status: status, contentType: contentType)
    }

    /// `object` serialised as JSON text (keys unsorted, as services send them).
    static func jsonText(_ object: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func raw(_ body: String, status: HTTPResponse.Status, contentType: String, headers extra: HTTPFields = [:])
        -> Response
    {
        var headers = extra
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// `body` as it is, with `headers` (JSON unless they name another `Content-Type`).
    static func verbatim(_ body: String, status: Int, headers: [String: String]) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        return Response(
            status: HTTPResponse.Status(code: status), headers: fields,
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static let serverErrorPage = "<html><head><title>500 Internal Server Error</title></head><body>oops</body></html>"

    /// A body that starts like JSON and is cut off mid-way.
    static let malformedJSON = "{\"total\": 12, \"results\": [{\"id\": "

    /// Either the failure answer or `normal()`, sent once the configured delay has passed since the request
    /// arrived (or never, for a stall).
    ///
    /// The answer is made first and the delay counts from arrival, as with a real service whose latency
    /// includes its own work: a benchmark that sets 200 ms then sees 200 ms, however long rendering took.
    /// It is made on threads of its own (`renderers`): made in the handler, an answer (4-12 ms of JSON for a
    /// page) held one of the server's few threads, so the handlers of requests that came with it started, and
    /// took their arrival time, that much later, and eight searches asked at once were answered 5 ms apart,
    /// over 100-130 ms instead of at 100 (docs/benchmarks.md, "paint").
    static func answer(
        _ request: Request, state: StandInState, term: String?, failure: (StandInBehavior) -> Response,
        normal: @escaping @Sendable () -> Response
    ) async -> Response {
        let arrived = ContinuousClock.now
        let (behavior, delay) = state.receive(request, searchTerm: term)
        if behavior == .stall {
            await state.wait(until: .now + .seconds(120))
            return raw("stalled", status: .serviceUnavailable, contentType: "text/plain")
        }
        let response: Response
        switch behavior {
        case .normal:
            let key = memoKey(request, term: term)
            response = await rendered { state.answer(key: key, make: normal) }
        case .malformed: response = raw(malformedJSON, status: .ok, contentType: "application/json")
        case .serverError: response = raw(serverErrorPage, status: .internalServerError, contentType: "text/html")
        case .raw(let body, let status, let headers): response = verbatim(body, status: status, headers: headers)
        default: response = failure(behavior)
        }
        if delay > .zero { await state.waitOutDelay(since: arrived, searchTerm: term) }
        return response
    }

    /// The threads answers are made on: two, as the machines the benchmarks run on have two cores.
    static let renderers = BlockingPool(size: 2, name: "stand-in")

    /// `make()`, run on `renderers`; the calling task waits without holding its thread.
    static func rendered(_ make: @escaping @Sendable () -> Response) async -> Response {
        await renderers.run(make) ?? make()
    }

    /// The request without its search term: path and the other parameters, sorted.
    static func memoKey(_ request: Request, term: String?) -> String {
        let others = request.queryValues.filter { _, value in term.map { !value.contains($0) } ?? true }
        return request.uri.path + "?"
            + others.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }

    /// `Retry-After` header when a retry time is given: whole seconds, or the HTTP date that many seconds from
    /// now when the test asks for that form (`StandInState.retryAfterAsDate`).
    static func retryHeaders(_ retryAfter: Int?, state: StandInState) -> HTTPFields {
        var headers = HTTPFields()
        guard let retryAfter else { return headers }
        if state.retryAfterAsDate {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            headers[.retryAfter] = formatter.string(from: Date().addingTimeInterval(Double(retryAfter)))
        } else {
            headers[.retryAfter] = String(retryAfter)
        }
        return headers
    }
}

extension Request {
    /// The origin the client used to reach us, for absolute image URLs in answers.
    var standInOrigin: String {
        "http://" + (head.authority ?? "127.0.0.1")
    }

    var queryValues: [String: String] { StandInState.decodeQuery(uri.query) }
}
