import Foundation
import OpenAPIRuntime

/// The sections of `/api/search/stream` as they come: one per source, in completion order. Ends after the
/// server's `done` event; throws `TesseraClientError` when the stream breaks off or says something this
/// client cannot read. Cancelling the iterating task closes the connection.
public struct SearchSectionStream: AsyncSequence, Sendable {
    public typealias Element = Section
    public typealias Failure = TesseraClientError

    let body: HTTPBody
    let server: URL

    public func makeAsyncIterator() -> Iterator {
        Iterator(events: body.asDecodedServerSentEvents().makeAsyncIterator(), server: server)
    }

    public struct Iterator: AsyncIteratorProtocol {
        typealias Events = ServerSentEventsDeserializationSequence<
            ServerSentEventsLineDeserializationSequence<HTTPBody>
        >
        var events: Events.AsyncIterator
        let server: URL
        var done = false

        public mutating func next() async throws(TesseraClientError) -> Section? {
            while !done {
                let event: ServerSentEvent?
                do {
                    event = try await events.next()
                } catch {
                    throw TesseraClientError(error, server: server)
                }
                guard let event else {
                    throw .unexpectedResponse("the search stream ended before its done event")
                }
                switch event.event {
                case "section":
                    return Section(try Self.decode(Components.Schemas.Section.self, event))
                case "groups":
                    continue  // The copies of one picture among the page's items: not what this sequence yields.
                case "done":
                    _ = try Self.decode(Components.Schemas.SearchDone.self, event)
                    done = true
                default:
                    continue  // An event this client does not know yet: skipped, as browsers do.
                }
            }
            return nil
        }

        private static func decode<T: Decodable>(_ type: T.Type, _ event: ServerSentEvent) throws(TesseraClientError)
            -> T
        {
            do {
                return try JSONDecoder.tessera.decode(T.self, from: Data((event.data ?? "").utf8))
            } catch {
                throw .unexpectedResponse("a \(event.event ?? "message") event the client cannot read: \(error)")
            }
        }
    }
}
