import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// Real answers and server-sent events of a live server (with stand-ins) validated against
/// `docs/openapi.yaml`'s schemas by an independent JSON Schema validator (Python's `jsonschema`, draft
/// 2020-12 as OpenAPI 3.1 uses). An event's data is checked against the `contentSchema` of its branch in the
/// stream's schema, so the test also fails when the document names no schema for an event the server sends.
@Suite("The OpenAPI schemas against real answers and events")
struct OpenAPIEventSchemaTests {
    /// One value to check: against a named schema under `components/schemas`, or as event `event` of the
    /// stream at `stream`.
    struct Sample: Encodable {
        var schema: String?
        var stream: String?
        var event: String?
        var data: String
    }

    @Test(.timeLimit(.minutes(2))) func searchAnswersAndStreamEventsMatchTheirSchemas() async throws {
        let standIns = StandInSet()
        // A failed source keeps its section, with `error`: that shape is checked too.
        standIns.openverse.state.behavior = .rateLimited(retryAfter: 30)
        try await withTessera(standIns.list) { client, _ in
            var samples: [Sample] = []
            let stream = try await client.execute(uri: "/api/search/stream?q=lynx&scope=all", method: .get)
            let events = serverSentEvents(stream.text)
            #expect(Set(events.map(\.event)) == ["section", "groups", "done"])
            #expect(events.count == 10)
            samples += events.map { Sample(stream: "/api/search/stream", event: $0.event, data: $0.data) }
            for uri in ["/api/search?q=lynx", "/api/search?q=lynx&scope=music&page=2"] {
                samples.append(
                    Sample(schema: "SearchResponse", data: try await client.execute(uri: uri, method: .get).text))
            }
            let sources = try await client.execute(uri: "/api/sources", method: .get).text
            samples.append(Sample(schema: "SourceList", data: sources))
            let item = try await GalleriesAPITests.firstResult(client)
            let fetched = try await client.execute(uri: "/api/items/pixabay/\(item.id.nativeID)", method: .get)
            samples.append(Sample(schema: "Item", data: fetched.text))
            for uri in ["/api/search?q=", "/api/search?q=lynx&scope=", "/api/items/nowhere/1"] {
                let answer = try await client.execute(uri: uri, method: .get)
                #expect(answer.status == .badRequest, "\(uri)")
                samples.append(Sample(schema: "ErrorEnvelope", data: answer.text))
            }
            let trace = try await client.execute(uri: "/api/search", method: .trace)
            samples.append(Sample(schema: "ErrorEnvelope", data: trace.text))
            try await Self.validate(samples)
        }
    }

    @Test(.timeLimit(.minutes(2))) func galleryAnswersAndEveryGalleryEventMatchTheirSchemas() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            var samples: [Sample] = []
            let port = try #require(client.port)
            let created = try await client.execute(
                uri: "/api/galleries", method: .post, body: ByteBuffer(string: #"{"name":"Dunes"}"#))
            samples.append(Sample(schema: "Gallery", data: created.text))
            let gallery = try created.json(Gallery.self)
            let path = "/api/galleries/\(gallery.id)"
            let events = try await EventStream.open(port: port, gallery: gallery.id)

            let item = try await GalleriesAPITests.firstResult(client)
            let first = try await GalleriesAPITests.add(client, gallery.id, json: try GalleriesAPITests.itemJSON(item))
            let (headers, body) = GalleriesAPITests.multipart(StandInImage.jpeg)
            let second = try await client.execute(uri: "\(path)/items", method: .post, headers: headers, body: body)
            samples += [first, second].map { Sample(schema: "GalleryItem", data: $0.text) }
            let secondID = try second.json(GalleryItem.self).id
            let moved = try await client.execute(
                uri: "\(path)/items/\(secondID)/move", method: .post, body: ByteBuffer(string: #"{"index":0}"#))
            samples.append(Sample(schema: "GalleryRevisionEvent", data: moved.text))
            _ = try await client.execute(uri: path, method: .patch, body: ByteBuffer(string: #"{"name":"Sand"}"#))
            samples.append(Sample(schema: "Gallery", data: try await client.execute(uri: path, method: .get).text))
            samples.append(
                Sample(schema: "GalleryList", data: try await client.execute(uri: "/api/galleries", method: .get).text))
            let removed = try await client.execute(uri: "\(path)/items/\(secondID)", method: .delete)
            samples.append(Sample(schema: "GalleryRevisionEvent", data: removed.text))
            let stale = try await client.execute(uri: path, method: .delete, headers: [.ifMatch: "\"1\""])
            #expect(stale.status == .preconditionFailed)
            samples.append(Sample(schema: "ErrorEnvelope", data: stale.text))
            samples.append(Sample(schema: "Gallery", data: try await client.execute(uri: path, method: .delete).text))
            let restored = try await client.execute(uri: "\(path)/restore", method: .post)
            samples.append(Sample(schema: "Gallery", data: restored.text))
            let gone = try await client.execute(uri: "\(path)?permanent=true", method: .delete)
            #expect(gone.status == .noContent)

            var names: [String] = []
            while names.last != "gone", names.count < 20 {
                let event = try await events.next()
                names.append(event.name)
                samples.append(Sample(stream: "/api/galleries/{id}/events", event: event.name, data: event.data))
            }
            await events.close()
            #expect(
                names == ["snapshot", "added", "added", "moved", "renamed", "removed", "deleted", "restored", "gone"])
            try await Self.validate(samples)
        }
    }

    /// Runs Python's `jsonschema` over the samples; every failure comes back as one line.
    static func validate(_ samples: [Sample]) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-samples-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONEncoder().encode(samples).write(to: file)
        let document = OpenAPIDocumentTests.root.appendingPathComponent("docs/openapi.yaml").path
        let script = """
            import json, sys, yaml
            from jsonschema import Draft202012Validator
            doc = yaml.safe_load(open(sys.argv[1]))
            samples = json.load(open(sys.argv[2]))
            # Lists are answers too; named here so a sample can point at them.
            doc['components']['schemas']['SourceList'] = {'type': 'array', 'items': {'$ref': '#/components/schemas/Source'}}
            doc['components']['schemas']['GalleryList'] = {'type': 'array', 'items': {'$ref': '#/components/schemas/Gallery'}}
            failures = []
            for sample in samples:
                if sample.get('schema'):
                    ref, what = '#/components/schemas/' + sample['schema'], sample['schema']
                else:
                    media = doc['paths'][sample['stream']]['get']['responses']['200']['content']['text/event-stream']
                    what = sample['stream'] + ' ' + sample['event']
                    # One branch per event name: {event: {const: name}, data: {contentSchema: {$ref}}}.
                    branches = [b['properties'] for b in media['schema']['oneOf']
                                if b['properties']['event'].get('const') == sample['event']]
                    if len(branches) != 1:
                        failures.append(what + ': %d schemas for this event' % len(branches)); continue
                    ref = branches[0]['data']['contentSchema']['$ref']
                validator = Draft202012Validator({'$ref': ref, 'components': doc['components']},
                                                 format_checker=Draft202012Validator.FORMAT_CHECKER)
                for error in validator.iter_errors(json.loads(sample['data'])):
                    failures.append(what + ': ' + '/'.join(map(str, error.absolute_path)) + ': ' + error.message[:300])
            print('\\n'.join(failures) if failures else 'ok %d' % len(samples))
            sys.exit(1 if failures else 0)
            """
        // The python3 on PATH: ./scripts/test installs jsonschema and PyYAML there (with schemathesis).
        let finished = try await SpawnedProcess.run("/usr/bin/env", ["python3", "-c", script, document, file.path])
        let text = finished.stdout + finished.stderr
        #expect(finished.status == 0, "\(text)")
        #expect(text.hasPrefix("ok \(samples.count)"), "\(text)")
    }
}
