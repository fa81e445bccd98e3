import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `Authorization: Bearer <token>` with every request.
struct BearerTokenMiddleware: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

/// Turns every answer of 400 or more into a `TesseraClientError`, in one place for every operation, so the
/// generated per-status cases never reach the hand-written layer.
struct ErrorResponseMiddleware: ClientMiddleware {
    /// Error bodies are small; a larger one is cut (its start still says what went wrong).
    static let maxErrorBody = 64 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        var bytes = Data()
        if let responseBody {
            for try await chunk in responseBody {
                bytes.append(contentsOf: chunk.prefix(Self.maxErrorBody - bytes.count))
                if bytes.count >= Self.maxErrorBody { break }
            }
        }
        throw TesseraClientError(
            status: response.status.code, body: bytes, eTag: response.headerFields[.eTag],
            retryAfter: response.headerFields[.retryAfter])
    }
}
