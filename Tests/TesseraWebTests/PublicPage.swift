import Foundation
import TesseraWebDriver
import Testing

/// What the public link tests ask: an owner signed in from a page of the app, links made through the API,
/// and the public page (`/s/{slug}`) as its visitor sees it.

struct LinkJSON: Decodable, Sendable {
    let id: String
    let kind: String
    let url: String
    let hasPassword: Bool
    let opens: Int
    let drops: Int?
}

extension Browser {
    /// Signs in through the API from the sign-in page (the cookie is the browser's from then on).
    func signIn(_ app: WebApp, _ name: String, _ password: String) async throws {
        try await go(to: app.url("/login"))
        let status = try await executeAsync(
            """
            const [name, password, done] = arguments;
            fetch('/api/session', { method: 'POST', body: JSON.stringify({ name, password }),
              headers: { 'content-type': 'application/json', 'x-tessera-client': 'web' } })
              .then((answer) => done(answer.status), () => done(0));
            """, [.string(name), .string(password)])
        #expect(status.int == 200, "signing in as \(name)")
    }

    /// A link to gallery `id` made through the API: `request` is the LinkRequest.
    func createLink(_ gallery: String, _ request: JSONValue) async throws -> LinkJSON {
        let answer = try await api("POST", "/api/galleries/\(gallery)/links", request)
        return try JSONDecoder().decode(LinkJSON.self, from: JSONEncoder().encode(answer))
    }

    // MARK: - The public page

    /// Opens a public page and waits until its script has settled on what to show.
    func openPublic(_ app: WebApp, _ path: String) async throws {
        try await go(to: path.hasPrefix("http") ? path : app.url(path))
        try await waitUntil("the public page to start") {
            try await self.execute(
                "return document.documentElement.dataset.ready === 'true' && document.body.dataset.state !== 'loading'"
            ).bool == true
        }
    }

    /// The page's state: `closed`, `password` or `ready`.
    func publicState() async throws -> String {
        try await execute("return document.body.dataset.state ?? ''").string ?? ""
    }

    /// The `alt` of every tile's image in the public grid, in page order (a restricted item's card: its title).
    func publicTileTitles() async throws -> [String] {
        try await execute(
            """
            return [...document.querySelectorAll('#public-grid .tile')]
              .map(t => t.querySelector('img')?.alt ?? t.querySelector('.card-title')?.textContent ?? '')
            """, as: [String].self)
    }

    /// Waits until the public grid shows `count` tiles whose images have loaded, a restricted item's card
    /// (which has none) counting as one.
    func waitForPublicTiles(_ count: Int) async throws {
        try await waitUntil("\(count) public tiles with their images") {
            try await self.execute(
                """
                const tiles = [...document.querySelectorAll('#public-grid .tile')];
                return tiles.length === arguments[0] && tiles.every(t => {
                  const img = t.querySelector('img');
                  return t.classList.contains('restricted-card') || (img && img.complete && img.naturalWidth > 0);
                });
                """, [JSONValue(count)]
            ).bool == true
        }
    }

    /// Whether anything on the page scrolls sideways.
    func overflowsSideways() async throws -> Bool {
        try await execute("return document.documentElement.scrollWidth > innerWidth").bool ?? true
    }

    /// Drops a PNG the page draws itself (`name`, `width`×`height`) on `target`, as a file from the desktop.
    func dropDrawnImage(on target: String, name: String, width: Int = 64, height: Int = 48) async throws {
        let error = try await executeAsync(
            """
            const [target, name, width, height, done] = arguments;
            (async () => {
              const canvas = document.createElement('canvas');
              canvas.width = width; canvas.height = height;
              const context = canvas.getContext('2d');
              context.fillStyle = '#3a7'; context.fillRect(0, 0, width, height);
              context.fillStyle = '#fc3'; context.fillRect(width / 4, height / 4, width / 2, height / 2);
              const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
              const transfer = new DataTransfer();
              transfer.items.add(new File([blob], name, { type: 'image/png' }));
              const element = document.querySelector(target);
              if (!element) throw new Error('nothing matches ' + target);
              element.scrollIntoView({ block: 'center' });
              const box = element.getBoundingClientRect();
              const x = box.left + box.width / 2, y = box.top + box.height / 2;
              for (const type of ['dragenter', 'dragover', 'drop']) {
                element.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, composed: true,
                  dataTransfer: transfer, clientX: x, clientY: y }));
              }
              done(null);
            })().catch((e) => done(String(e)));
            """, [.string(target), .string(name), JSONValue(width), JSONValue(height)])
        if let error = error.string { Issue.record("the drop failed: \(error)") }
    }

    /// Each line of "Add images", newest first: its name, state (`added`, `failed`, …) and status text.
    func dropRows() async throws -> [[String]] {
        try await execute(
            """
            return [...document.querySelectorAll('#drop-list .drop-row')].map(row => [
              row.querySelector('.drop-name').textContent, row.dataset.state, row.querySelector('.drop-status').textContent])
            """, as: [[String]].self)
    }
}
