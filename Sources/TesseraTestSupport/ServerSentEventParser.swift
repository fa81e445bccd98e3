/// Server-sent events as a test reads them off a response body: text in as it arrives, whole events out.
/// Comment lines (heartbeats) and `retry:` make no event.
public struct ServerSentEventParser: Sendable {
    public struct Event: Sendable, Equatable {
        public var name = "message"
        public var id: String?
        public var data = ""

        public init(name: String = "message", id: String? = nil, data: String = "") {
            self.name = name
            self.id = id
            self.data = data
        }
    }

    private var pending = ""

    public init() {}

    /// The events `chunk` completes (a blank line ends one); the rest waits for the next chunk.
    public mutating func feed(_ chunk: String) -> [Event] {
        pending += chunk
        var events: [Event] = []
        while let end = pending.range(of: "\n\n") {
            let block = pending[..<end.lowerBound]
            pending = String(pending[end.upperBound...])
            var event = Event()
            var isEvent = false
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { (event.name, isEvent) = (String(line.dropFirst(7)), true) }
                if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                if line.hasPrefix("data: ") { (event.data, isEvent) = (event.data + line.dropFirst(6), true) }
            }
            if isEvent { events.append(event) }
        }
        return events
    }
}
