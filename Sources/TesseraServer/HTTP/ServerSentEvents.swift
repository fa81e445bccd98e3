import Foundation
import HTTPTypes
import Hummingbird

/// Server-sent events (`text/event-stream`), as the search stream and the gallery streams send them.
enum ServerSentEvents {
    /// A streaming answer: never cached, never buffered by a proxy in front.
    static func response(_ body: ResponseBody) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                HTTPField.Name("X-Accel-Buffering")!: "no",
            ],
            body: body)
    }

    /// One event; `json` is a single line (JSON has no raw newlines). `id` is what a reconnecting browser
    /// sends back as `Last-Event-ID`.
    static func event(_ name: String, id: Int? = nil, json: Data) -> ByteBuffer {
        var buffer = ByteBuffer(string: "event: \(name)\n")
        if let id { buffer.writeString("id: \(id)\n") }
        buffer.writeString("data: ")
        buffer.writeBytes(json)
        buffer.writeString("\n\n")
        return buffer
    }
}
