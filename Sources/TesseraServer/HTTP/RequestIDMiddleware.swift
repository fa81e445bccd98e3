import HTTPTypes
import Hummingbird
import TesseraCore

extension HTTPField.Name {
    static let requestID = Self("X-Request-Id")!
}

/// Gives every request an id — the client's `X-Request-Id` when it is sane (see `RequestID.sanitized`),
/// else a new one — echoes it in the answer (errors included) and sets `RequestID.current` around the
/// rest of the request, so every log line the request causes carries it as `request_id`.
///
/// First in the router, so it wraps everything else. A streamed body is written after the handler has
/// returned, outside this scope; it is wrapped so whatever work it does while written logs the id too. Hummingbird's own `hb.request.id` is not used: it is only on `context.logger`, which
/// the services (sources, fetcher) never see, and it cannot come from the client.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let id = RequestID.sanitized(request.headers[.requestID]) ?? RequestID.make()
        return try await RequestID.$current.withValue(id) {
            var response: Response
            do {
                response = try await next(request, context)
            } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
            response.headers[.requestID] = id
            // Only streamed bodies (no length known) do work while they are written; the others are
            // left as they are, so their fast paths stay.
            if response.body.contentLength == nil {
                let body = response.body
                response.body = ResponseBody { writer in
                    try await RequestID.$current.withValue(id) { try await body.write(writer) }
                }
            }
            return response
        }
    }
}
