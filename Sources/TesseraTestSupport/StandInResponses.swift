import Foundation
import HTTPTypes
import Hummingbird

/// Building blocks every provider stand-in answers with.
enum StandInResponse {
    static func json(_ object: Any, status: HTTPResponse.Status = .ok, contentType: String = "application/json")
        -> Response
    {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
        return raw(String(decoding: data, as: UTF8.self), status: status, contentType: contentType)
    }

    static func raw(_ body: String, status: HTTPResponse.Status, contentType: String, headers extra: HTTPFields = [:])
        -> Response
    {
        var headers = extra
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static let serverErrorPage = "<html><head><title>500 Internal Server Error</title></head><body>oops</body></html>"

    /// A body that starts like JSON and is cut off mid-way.
    static let malformedJSON = "{\"total\": 12, \"results\": [{\"id\": "

    /// Applies the configured delay (or stall) and either the failure answer or `normal()`.
    static func answer(
        _ request: Request, state: StandInState, term: String?, failure: (StandInBehavior) -> Response,
        normal: () -> Response
    ) async -> Response {
        let (behavior, delay) = state.receive(request, searchTerm: term)
        if behavior == .stall {
            await state.waitUntilStopped(atMost: .seconds(120))
            return raw("stalled", status: .serviceUnavailable, contentType: "text/plain")
        }
        // One sleep, not a polling loop: benchmarks compare against this delay, so it must be exact.
        if delay > .zero { try? await Task.sleep(for: delay) }
        switch behavior {
        case .normal: return normal()
        case .malformed: return raw(malformedJSON, status: .ok, contentType: "application/json")
        case .serverError: return raw(serverErrorPage, status: .internalServerError, contentType: "text/html")
        default: return failure(behavior)
        }
    }

    /// `Retry-After` header when a retry time is given.
    static func retryHeaders(_ retryAfter: Int?) -> HTTPFields {
        var headers = HTTPFields()
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
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
