import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// Server-sent events (`text/event-stream`), as the search stream and the gallery streams send them.
enum ServerSentEvents {
    /// How a stream treats its client; see docs/limits.md.
    struct Settings: Sendable {
        /// Between two keep-alive comments, so proxies keep a quiet stream open and a dead peer is noticed.
        var heartbeat: Duration = .seconds(15)
        /// Events waiting for a client that does not take them, past which the stream is closed: the client
        /// reconnects and resumes with `Last-Event-ID` instead of the server holding its backlog.
        var backlog = 64
    }

    /// A stream whose events `produce` sends to the sink, with heartbeats in between, never holding more
    /// than `settings.backlog` events for a slow client: past that, `connection` is closed at once. (The
    /// writer is then waiting for the socket to drain, which a stalled client never lets happen: only
    /// closing the connection ends that wait before the send timeout.)
    static func stream(
        _ settings: Settings, connection: ConnectionHandle,
        _ produce: @escaping @Sendable (EventSink) async throws -> Void
    ) -> Response {
        let body = ResponseBody { writer in
            let (events, sink) = EventSink.make(backlog: settings.backlog, onOverflow: { connection.close() })
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { sink.finish() }
                    try await produce(sink)
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: settings.heartbeat)
                        sink.send(ByteBuffer(string: ": keep-alive\n\n"))
                    }
                }
                for await event in events {
                    if sink.overflowed { break }
                    try await writer.write(event)
                    sink.taken()
                }
                group.cancelAll()
                if sink.overflowed { throw EventSink.Overflow() }
            }
            try await writer.finish(nil)
        }
        return response(body)
    }

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

/// Where a stream's events wait for the connection to take them: at most `backlog`. Past that the client
/// is not keeping up (or not reading at all), everything waiting is dropped and the stream ends.
final class EventSink: Sendable {
    struct Overflow: Error {}

    private struct State {
        var waiting = 0
        var overflowed = false
    }

    private let continuation: AsyncStream<ByteBuffer>.Continuation
    private let backlog: Int
    private let onOverflow: @Sendable () -> Void
    private let state = Mutex(State())

    private init(
        _ continuation: AsyncStream<ByteBuffer>.Continuation, backlog: Int, onOverflow: @escaping @Sendable () -> Void
    ) {
        self.continuation = continuation
        self.backlog = backlog
        self.onOverflow = onOverflow
    }

    static func make(backlog: Int, onOverflow: @escaping @Sendable () -> Void) -> (AsyncStream<ByteBuffer>, EventSink) {
        let (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        return (stream, EventSink(continuation, backlog: backlog, onOverflow: onOverflow))
    }

    var overflowed: Bool { state.withLock { $0.overflowed } }

    func send(_ event: ByteBuffer) {
        let (accepted, overflowedNow) = state.withLock { state in
            guard !state.overflowed else { return (false, false) }
            state.waiting += 1
            if state.waiting > backlog { state.overflowed = true }
            return (!state.overflowed, state.overflowed)
        }
        if accepted {
            continuation.yield(event)
        } else {
            // Ends the stream at once: what is still buffered is not sent (`taken` sees the overflow).
            continuation.finish()
            if overflowedNow { onOverflow() }
        }
    }

    /// One event went out to the connection.
    func taken() {
        state.withLock { $0.waiting -= 1 }
    }

    func finish() {
        continuation.finish()
    }
}

/// A request context that can end its connection (`TesseraRequestContext`).
protocol ConnectionRequestContext: RequestContext {
    var connection: ConnectionHandle { get }
}

/// The connection a request came on, for an answer that must end it early.
struct ConnectionHandle: Sendable {
    let channel: (any Channel)?

    /// Closes the connection at once; whatever is waiting to be written is dropped, and a writer waiting
    /// for the socket to drain fails.
    func close() {
        channel?.close(promise: nil)
    }
}
