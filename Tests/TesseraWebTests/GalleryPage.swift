import Foundation
import TesseraWebDriver
import Testing

/// What the gallery tests ask the server and the page: the galleries API called from the page (so a test
/// sees what the server stored), drags fired from a script, and the gallery grid.

struct GalleryJSON: Decodable, Sendable {
    let id: String
    let name: String
    let itemCount: Int
    let deletedAt: String?
    let revision: Int
    let items: [GalleryItemJSON]?
}

struct GalleryItemJSON: Decodable, Sendable {
    struct Item: Decodable, Sendable {
        let id: String
        let source: String
        let title: String
    }
    struct Variant: Decodable, Sendable { let url: String }
    struct Images: Decodable, Sendable {
        let thumbnail: Variant
        let preview: Variant
        let original: Variant
    }

    let id: String
    let item: Item
    let sourceURL: String?
    let image: Images
}

struct APIFailure: Error, CustomStringConvertible {
    let request: String
    let status: Int
    let body: JSONValue
    var description: String { "\(request) answered \(status): \(body)" }
}

/// What `Browser.drag` saw between `dragover` and `drop`.
struct DragState: Decodable, Sendable {
    let markerShown: Bool
    let trashShown: Bool
    let pendingAfterDrop: Int
    let error: String?
}

extension WebApp {
    /// An image on the stand-ins' CDN, which the fetcher trusts (it is a configured source's host).
    func standInImage(_ name: String) -> String { "\(standInServer.origin)/pixabay/cdn/\(name).jpg" }
}

extension Browser {
    // MARK: - The API, from the page

    /// Calls the JSON API with `fetch` from the page (which must be one of the app's) and answers the body,
    /// null for 204; throws `APIFailure` for any other status than 2xx.
    @discardableResult
    func api(_ method: String, _ path: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        let answer = try await executeAsync(
            """
            const [method, path, body, done] = arguments;
            const json = body !== null;
            fetch(path, { method, headers: json ? { 'content-type': 'application/json' } : {},
                          body: json ? JSON.stringify(body) : undefined })
              .then(async (r) => done({ status: r.status, body: r.status === 204 ? null : await r.json() }))
              .catch((e) => done({ status: 0, body: String(e) }));
            """, [.string(method), .string(path), body ?? .null])
        let status = answer["status"]?.int ?? 0
        guard (200..<300).contains(status) else {
            throw APIFailure(request: "\(method) \(path)", status: status, body: answer["body"] ?? .null)
        }
        return answer["body"] ?? .null
    }

    func gallery(_ id: String) async throws -> GalleryJSON {
        try decode(try await api("GET", "/api/galleries/\(id)"))
    }

    func galleries(deleted: Bool = false) async throws -> [GalleryJSON] {
        try decode(try await api("GET", deleted ? "/api/galleries?deleted=true" : "/api/galleries"))
    }

    func createGallery(_ name: String) async throws -> GalleryJSON {
        try decode(try await api("POST", "/api/galleries", ["name": .string(name)]))
    }

    @discardableResult
    func addImage(_ url: String, to gallery: String) async throws -> GalleryItemJSON {
        try decode(try await api("POST", "/api/galleries/\(gallery)/items", ["url": .string(url)]))
    }

    private func decode<T: Decodable>(_ value: JSONValue) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }

    // MARK: - Drag and drop

    /// A drag as the browser fires it: `dragstart` on `source` (if any), `dragenter`, `dragover` and `drop`
    /// on whatever is at the point `at` (fractions of `target`'s box), then `dragend` on the source; all
    /// with one `DataTransfer` holding `data` and, with `fileFrom`, a file made from what that URL answers.
    /// WebDriver's actions cannot drive HTML5 drag and drop in Chromium, so a script fires the events.
    @discardableResult
    func drag(
        from source: String? = nil, to target: String, at point: (x: Double, y: Double) = (0.5, 0.5),
        data: [String: String] = [:], fileFrom: String? = nil, fileName: String = "photo.jpg"
    ) async throws -> DragState {
        let answer = try await executeAsync(
            """
            const [source, target, fx, fy, data, fileURL, fileName, done] = arguments;
            (async () => {
              const transfer = new DataTransfer();
              for (const [type, value] of Object.entries(data)) transfer.setData(type, value);
              if (fileURL) {
                const blob = await (await fetch(fileURL)).blob();
                transfer.items.add(new File([blob], fileName, { type: blob.type }));
              }
              const fire = (element, type, x, y) => element.dispatchEvent(new DragEvent(type,
                { bubbles: true, cancelable: true, composed: true, dataTransfer: transfer, clientX: x, clientY: y }));
              const from = source ? document.querySelector(source) : null;
              if (source && !from) throw new Error('nothing matches ' + source);
              if (from) fire(from, 'dragstart', 0, 0);
              // What the drag start shows (the panel, the trash) may take a moment to fill in.
              let to = null;
              for (let tries = 0; tries < 60 && !(to = document.querySelector(target)); tries++) {
                await new Promise((resolve) => setTimeout(resolve, 50));
              }
              if (!to) throw new Error('nothing matches ' + target);
              to.scrollIntoView({ block: 'center' });
              await new Promise((resolve) => requestAnimationFrame(resolve));
              const box = to.getBoundingClientRect();
              const x = box.left + box.width * fx, y = box.top + box.height * fy;
              const under = document.elementFromPoint(x, y) ?? to;
              fire(under, 'dragenter', x, y);
              fire(under, 'dragover', x, y);
              const markerShown = !(document.querySelector('#drop-marker')?.hidden ?? true);
              const trashShown = !(document.querySelector('#trash-target')?.hidden ?? true);
              fire(under, 'drop', x, y);
              const pendingAfterDrop = document.querySelectorAll('#gallery-grid .tile.pending').length;
              if (from) fire(from, 'dragend', x, y);
              done({ markerShown, trashShown, pendingAfterDrop, error: null });
            })().catch((e) => done({ markerShown: false, trashShown: false, pendingAfterDrop: 0, error: String(e) }));
            """,
            [
                source.map(JSONValue.string) ?? .null, .string(target), .number(point.x), .number(point.y),
                .object(data.mapValues(JSONValue.string)), fileFrom.map(JSONValue.string) ?? .null, .string(fileName),
            ])
        let state = try JSONDecoder().decode(DragState.self, from: JSONEncoder().encode(answer))
        if let error = state.error { Issue.record("the drag failed: \(error)") }
        return state
    }

    /// A finger held on `source` for `hold`, moved onto `target` (`offsetX` points right of its centre)
    /// and lifted: real touch input, as a phone gives it.
    func touchDrag(from source: Element, to target: Element, offsetX: Int = 0, hold: Duration = .milliseconds(700))
        async throws
    {
        let (seconds, attoseconds) = hold.components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        let steps: [JSONValue] = [
            ["type": "pointerMove", "origin": source.json, "x": 0, "y": 0],
            ["type": "pointerDown", "button": 0],
            ["type": "pause", "duration": JSONValue(milliseconds)],
            ["type": "pointerMove", "origin": target.json, "x": JSONValue(offsetX), "y": 0, "duration": 400],
            ["type": "pointerUp", "button": 0],
        ]
        let finger: JSONValue = [
            "type": "pointer", "id": "touch", "parameters": ["pointerType": "touch"], "actions": .array(steps),
        ]
        _ = try await session.post("actions", ["actions": [finger]])
    }

    // MARK: - The gallery page

    /// The gallery item ids of the tiles, in page order (placeholders left out).
    func galleryTileIDs() async throws -> [String] {
        try await execute(
            "return [...document.querySelectorAll('#gallery-grid .tile:not(.pending)')].map(t => t.dataset.id)",
            as: [String].self)
    }

    func pendingTileCount() async throws -> Int {
        try await execute("return document.querySelectorAll('#gallery-grid .tile.pending').length").int ?? 0
    }

    /// Waits until the page shows `count` tiles whose images have loaded.
    func waitForGalleryTiles(_ count: Int, timeout: Duration = Browser.patience) async throws {
        try await waitUntil("\(count) gallery tiles with their images", timeout: timeout) {
            try await self.execute(
                """
                const tiles = [...document.querySelectorAll('#gallery-grid .tile:not(.pending)')];
                return tiles.length === arguments[0] && document.querySelectorAll('#gallery-grid .tile.pending').length === 0
                  && tiles.every(t => { const img = t.querySelector('img'); return img && img.complete && img.naturalWidth > 0; });
                """, [JSONValue(count)]
            ).bool == true
        }
    }

    /// The message in the toast (without its button).
    func toastText() async throws -> String {
        try await execute(
            "const t = document.querySelector('#toast'); return t.hidden ? '' : (t.querySelector('.toast-text')?.textContent ?? '')"
        ).string ?? ""
    }

    func waitForToast(_ matches: @escaping @Sendable (String) -> Bool, _ what: String) async throws {
        try await waitUntil("the toast “\(what)”") { matches(try await self.toastText()) }
    }

    /// Rests the mouse on the toast, which then stays, as it does for a person about to press its Undo,
    /// however long the test's checks take on a busy machine (unheld, it goes after six seconds).
    func holdToast() async throws {
        let toast = try await waitFor("#toast")
        let mouse: JSONValue = [
            "type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"],
            "actions": [["type": "pointerMove", "origin": toast.json, "x": 0, "y": 0]],
        ]
        _ = try await session.post("actions", ["actions": [mouse]])
    }

    /// Expects no console errors but the browser's own line for each request the test expected to fail
    /// (`exceptStatus`).
    func expectNoConsoleErrors(
        exceptStatus statuses: [Int] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let errors = try await consoleErrorMessages().filter { message in
            !statuses.contains { message.contains("status of \($0)") }
        }
        #expect(errors.isEmpty, "console errors: \(errors)", sourceLocation: sourceLocation)
    }
}
