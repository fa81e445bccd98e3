import Hummingbird
import NIOCore
import NIOHTTP1

extension Request {
    /// Whether `Content-Length` declares more than `limit` bytes. Such a body is refused before a byte of it is
    /// read: a client may declare a terabyte and send nothing, and should hear at once that it is too large. A
    /// run of digits past `Int` is more than any limit; a value that is no length at all is the HTTP parser's to
    /// refuse (it answers 400 or closes the connection before a route sees the request).
    func declaresBody(over limit: Int) -> Bool {
        guard let text = headers[.contentLength], !text.isEmpty,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return false }
        guard let length = Int(text) else { return true }
        return length > limit
    }

    /// The whole body, at most `limit` bytes; a larger one, declared or sent, throws `tooLarge()`. A body the
    /// HTTP parser gives up on half way (a chunk size that is no number, or past 64 bits) is the client's
    /// mistake, a 400, not a failure of the server.
    func boundedBody(upTo limit: Int, tooLarge: () -> any Error) async throws -> ByteBuffer {
        guard !declaresBody(over: limit) else { throw tooLarge() }
        do {
            return try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw tooLarge()
        } catch is HTTPParserError {
            throw HTTPError(
                .badRequest, message: "The request body is not valid HTTP/1.1: a chunk size or length is no number.")
        }
    }
}
