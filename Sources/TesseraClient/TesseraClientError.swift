import Foundation

/// Everything a `TesseraClient` call can fail with, each case with what to do about it in `description`.
public enum TesseraClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No answer from the server: wrong address, server not running, network down, or a timeout.
    case unreachable(server: URL, reason: String)
    /// 401: the server wants a token and the one given is missing or wrong.
    case unauthorized(message: String)
    /// 404: no such gallery, gallery item, search result or image.
    case notFound(message: String)
    /// 412: the gallery changed since `revision` was read. `currentRevision` is the gallery's revision now,
    /// when the server said it (its `ETag`): read the gallery again, then retry with that revision.
    case revisionMismatch(currentRevision: Int?, message: String)
    /// 409: the change cannot apply to the gallery as it is (for example it is in Recently deleted).
    case conflict(message: String)
    /// 409 `near_duplicate`: the gallery already holds the same picture, item `itemID` titled `title`; send the
    /// add again with `allowNearDuplicate` to add it anyway.
    case nearDuplicate(itemID: String, title: String, message: String)
    /// 429: too many requests of this kind from this address; `retryAfter` seconds when the server said.
    case rateLimited(retryAfter: Int?, message: String)
    /// 400 and other 4xx answers (403, 413, 415): the request itself was refused; `code` is the server's
    /// machine-readable reason (`invalid_query`, `too_large`, …) and `message` its sentence.
    case badRequest(status: Int, code: String, message: String)
    /// 5xx: the server (or a service behind it) failed; trying later may help.
    case serverError(status: Int, message: String)
    /// The server answered something this client cannot read: most likely a server of another version.
    case unexpectedResponse(String)
    /// An image URL that is not one of this server's signed `/img/...` addresses.
    case invalidImageURL(String)
    /// The task was cancelled before the answer came.
    case cancelled

    public var description: String {
        switch self {
        case .unreachable(let server, let reason):
            "Could not reach the Tessera server at \(server.absoluteString) (\(reason)). Check the address and "
                + "that the server is running."
        case .unauthorized(let message):
            "The server refused the token (401: \(message)). Pass the token the server was started with "
                + "(TESSERA_TOKEN for the tessera command)."
        case .notFound(let message):
            "Not found (404): \(message)"
        case .revisionMismatch(let current, let message):
            "The gallery changed meanwhile (412: \(message))"
                + (current.map { " Its revision is now \($0); reload it and try again." } ?? " Reload it and try again.")
        case .conflict(let message):
            "Refused (409): \(message)"
        case .nearDuplicate(_, let title, _):
            "This gallery already has a picture that looks the same (“\(title)”); nothing was added."
        case .rateLimited(let retryAfter, let message):
            "Rate limited (429): \(message)" + (retryAfter.map { " Retry after \($0) seconds." } ?? "")
        case .badRequest(let status, let code, let message):
            "The server refused the request (\(status) \(code)): \(message)"
        case .serverError(let status, let message):
            "The server failed (\(status)): \(message) Try again later; the server's log says more."
        case .unexpectedResponse(let what):
            "The server's answer was not what this client expects (\(what)). Is the server the same version as "
                + "this client?"
        case .invalidImageURL(let url):
            "\(url) is not an image address of this server (/img/{variant}/{signature}/{source})."
        case .cancelled:
            "Cancelled."
        }
    }
}

extension TesseraClientError {
    /// The error for an answer with status 400 or more: its `{"error": {"code", "message"}}` body, read
    /// with the headers that matter (`ETag` on 412, `Retry-After` on 429).
    init(status: Int, body: Data, eTag: String?, retryAfter: String?) {
        struct Envelope: Decodable {
            struct Info: Decodable {
                struct Duplicate: Decodable {
                    let id: String
                    let title: String
                }
                let code: String
                let message: String
                let duplicateOf: Duplicate?
            }
            let error: Info
        }
        let info = try? JSONDecoder().decode(Envelope.self, from: body).error
        let code = info?.code ?? "http_\(status)"
        let message = info?.message ?? "HTTP status \(status) with no error body."
        switch status {
        case 401: self = .unauthorized(message: message)
        case 404: self = .notFound(message: message)
        case 409:
            if let duplicate = info?.duplicateOf, code == "near_duplicate" {
                self = .nearDuplicate(itemID: duplicate.id, title: duplicate.title, message: message)
            } else {
                self = .conflict(message: message)
            }
        case 412: self = .revisionMismatch(currentRevision: eTag.flatMap(Revision.parse), message: message)
        case 429:
            let seconds = retryAfter.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            self = .rateLimited(retryAfter: seconds, message: message)
        case 500...: self = .serverError(status: status, message: message)
        default: self = .badRequest(status: status, code: code, message: message)
        }
    }
}

/// Revisions as HTTP carries them: an `ETag` of `"17"` (or `W/"17"`) out, `If-Match: 17` in (the bare form
/// the API also takes: the runtime percent-encodes header values, so a quoted one would arrive as `%2217%22`).
enum Revision {
    static func parse(_ eTag: String) -> Int? {
        var text = Substring(eTag.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        return Int(text)
    }

    static func ifMatch(_ revision: Int?) -> String? {
        revision.map { String($0) }
    }
}
