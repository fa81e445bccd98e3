import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TesseraAccounts
import TesseraCore
import TesseraGalleries
import TesseraImageProxy

/// An error as the API reports it: `{"error": {"code", "message"}}` with a fitting status.
///
/// Each subsystem's error enum is mapped to one here, in `APIError+<Subsystem>.swift`, and nowhere else. A
/// `5xx` answer's message says what happened in general words, never the underlying error's text:
/// `APIErrorMiddleware` logs `underlying` with the request instead.
public struct APIError: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var headers: HTTPFields = [:]
    /// What went wrong underneath, for the log only.
    public var underlying: (any Error)?
    /// The gallery item a refused add is the same picture as (`near_duplicate`), sent with the error.
    public var duplicateOf: NearDuplicate?

    /// What a `500` says when there is nothing more a client can use.
    public static let genericMessage = "Something went wrong on the server; the log says more."

    public init(status: HTTPResponse.Status, code: String, message: String, underlying: (any Error)? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.underlying = underlying
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
            case .rateLimited, .overBudget: .tooManyRequests
            case .invalidKey, .serviceError, .badResponse, .unreachable, .rejected: .badGateway
            }
        self.init(status: status, code: error.code, message: error.message, underlying: error)
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let info = ErrorBody(code: code, message: message, duplicateOf: duplicateOf)
        var response = JSONBody.response(ErrorEnvelope(error: info), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    private struct ErrorEnvelope: Encodable {
        let error: ErrorBody
    }

    /// `ErrorInfo` as the API's errors write it, with what some errors add (`duplicateOf`).
    private struct ErrorBody: Encodable {
        let code: String
        let message: String
        let duplicateOf: NearDuplicate?
    }
}

/// Turns every error thrown below it into the API's error shape, so no client ever sees another format, and
/// logs every `5xx` answer with its request and underlying error.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logging.Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let answer = Self.apiError(for: error, request: request)
            if answer.status.code >= 500 {
                logger.error(
                    "request failed",
                    metadata: [
                        "method": "\(request.method.rawValue)", "path": "\(LoggedPath.of(request.uri.path))",
                        "status": "\(answer.status.code)", "code": "\(answer.code)",
                        "error": "\(answer.underlying.map { "\($0)" } ?? answer.message)",
                    ])
            }
            throw answer
        }
    }

    /// The API's answer for anything thrown by a route; what no subsystem claims is a `500`.
    static func apiError(for error: any Error, request: Request) -> APIError {
        switch error {
        case let error as APIError: error
        case let error as HTTPError: apiError(for: error, request: request)
        case let error as InputError: APIError(error)
        case let error as SourceError: APIError(error)
        case let error as GalleryError: APIError(error)
        case let error as ImageProxyError: APIError(error)
        case let error as MediaProxyError: APIError(error)
        case let error as FairUseError: APIError(error)
        case let error as AccountError: APIError(error)
        default:
            APIError(
                status: .internalServerError, code: "internal_error", message: APIError.genericMessage,
                underlying: error)
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
        case let status where status.code >= 500:
            let code = status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
            return APIError(status: status, code: code, message: APIError.genericMessage, underlying: error)
        default:
            let code = error.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
            return APIError(status: error.status, code: code, message: error.body ?? error.status.reasonPhrase + ".")
        }
    }
}

/// A path as the log shows it: at most 300 characters, and a public or drop link's slug left out, since the
/// slug is the link's secret (docs/accounts.md, "Public and drop links").
enum LoggedPath {
    static func of(_ path: String) -> String {
        var parts = path.prefix(300).split(separator: "/", omittingEmptySubsequences: false)
        if parts.count > 2, parts[1] == "s" {
            parts[2] = "…"
        } else if parts.count > 3, parts[1] == "api", parts[2] == "shared" {
            parts[3] = "…"
        }
        return parts.joined(separator: "/")
    }
}
