import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TesseraCore
import TesseraGalleries
import TesseraImages

/// An error as the API reports it: `{"error": {"code", "message"}}` with a fitting status.
public struct APIError: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var headers: HTTPFields = [:]

    public init(status: HTTPResponse.Status, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public init(_ error: InputError) {
        self.init(status: .badRequest, code: error.code, message: error.message)
    }

    /// A source's failure when it is the whole answer (one item), not one section of many.
    public init(_ error: SourceError) {
        let status: HTTPResponse.Status =
            switch error {
            case .notFound: .notFound
            case .disabled: .serviceUnavailable
            case .timeout: .gatewayTimeout
            case .rateLimited: .tooManyRequests
            case .invalidKey, .serviceError, .badResponse, .unreachable, .rejected: .badGateway
            }
        self.init(status: status, code: error.code, message: error.message)
        if case .rateLimited(_, let retryAfter?) = error { headers[.retryAfter] = String(retryAfter) }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONBody.response(ErrorEnvelope(error: ErrorInfo(code: code, message: message)), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    private struct ErrorEnvelope: Encodable {
        let error: ErrorInfo
    }
}

/// Turns every error thrown below it into the API's error shape, so no client ever sees another format.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logging.Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError {
            throw Self.apiError(for: error, request: request)
        } catch let error as InputError {
            throw APIError(error)
        } catch let error as SourceError {
            throw APIError(error)
        } catch let error as GalleryError {
            throw APIError(error)
        } catch let error as ImageProxyError {
            throw APIError(error)
        } catch {
            logger.error("unhandled error", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            throw APIError(
                status: .internalServerError, code: "internal_error",
                message: "Something went wrong on the server; the log says more.")
        }
    }

    static func apiError(for error: HTTPError, request: Request) -> APIError {
        switch error.status {
        case .notFound:
            return APIError(
                status: .notFound, code: "not_found", message: "There is nothing at \(request.uri.path.prefix(200)).")
        case .methodNotAllowed:
            return APIError(
                status: .methodNotAllowed, code: "method_not_allowed",
                message: "\(request.method.rawValue) is not allowed on \(request.uri.path.prefix(200)).")
        default:
            let code = error.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
            return APIError(status: error.status, code: code, message: error.body ?? error.status.reasonPhrase + ".")
        }
    }
}
