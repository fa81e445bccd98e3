import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// Public and drop links in Chromium (`TESSERA_AUTH=accounts`): the owner makes and copies a link in the Share
/// dialog; a browser with no session opens `/s/{slug}` and sees the gallery read-only, on a phone and a
/// desktop; a password link asks for it; revoked and expired links say so; a drop link takes a visitor's image
/// and the owner finds it in the gallery.
@Suite("Public links in a browser", .chromedriver, .serialized)
struct PublicLinkUITests {
    static let settings = ["TESSERA_AUTH": "accounts", "TESSERA_BCRYPT_COST": "4"]
    static let owner = (name: "ada", password: "correct horse")

    static let clipboard = """
        navigator.clipboard.readText().then(arguments[0], (error) => arguments[0]('failed: ' + error));
        """

    /// The owner signed in, with a gallery of Pixabay's first result for each of `images` (openly licensed: a
    /// picture added by its address has no licence a link may share, docs/licences.md); answers the gallery's
    /// id and its items' titles in the owner's order.
    private func ownerGallery(_ browser: Browser, _ app: WebApp, name: String, images: [String]) async throws
        -> (id: String, titles: [String])
    {
        try await browser.signIn(app, Self.owner.name, Self.owner.password)
        let gallery = try await browser.createGallery(name)
        for image in images {
            let search = try await browser.api("GET", "/api/search?q=\(image)&scope=pixabay")
            let item = try #require(search["sections"]?.array?.first?["items"]?.array?.first)
            try await browser.api("POST", "/api/galleries/\(gallery.id)/items", ["item": item])
        }
        let titles = try #require(try await browser.gallery(gallery.id).items).map(\.item.title)
        return (gallery.id, titles)
    }

    @Test(arguments: phoneAndDesktop.map { [$0.width, $0.height, $0.mobile ? 1 : 0] })
    func theOwnerSharesAViewLinkAndAVisitorSeesTheGalleryReadOnly(size: [Int]) async throws {
        let (width, height, mobile) = (size[0], size[1], size[2] == 1)
        try await WebApp.run(setting: Self.settings, users: [Self.owner]) { app in
            let copied = try await withBrowser(width: width, height: height, mobile: mobile) { owner in
                try await owner.cdp(
                    "Browser.grantPermissions",
                    ["permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"], "origin": .string(app.base)])
                let gallery = try await ownerGallery(owner, app, name: "Harbour", images: ["boat", "pier", "gull"])
                try await owner.open(app, "/galleries/\(gallery.id)")
                try await owner.waitUntil("the Share button") { try await !owner.isHidden("#gallery-share") }
                try await owner.waitFor("#gallery-share").click()
                try await owner.waitUntil("the links, none yet") {
                    let shown = try await !owner.isHidden("#links")
                    let text = try await owner.text(of: "#links-list")
                    return shown && text.contains("No links yet.")
                }
                try await owner.waitFor("#links-new").click()
                try await owner.waitUntil("the form") { try await !owner.isHidden("#link-form") }
                #expect(try await owner.isHidden("#link-drop-options"), "drop options only for drop links")
                try await #require(try await owner.find("#link-form button[type=submit]")).click()
                try await owner.waitUntil("the new link listed") {
                    try await owner.findAll("#links-list .link-row[data-kind=view]").count == 1
                }
                let facts = try await owner.text(of: "#links-list .link-row .link-facts")
                #expect(
                    facts.contains("Not opened yet") && facts.contains("No password") && facts.contains("Never expires")
                )
                #expect(try await !owner.overflowsSideways(), "the dialog fits at \(width)×\(height)")
                try await owner.saveScreenshot(named: "share-links-\(width)x\(height)")
                try await owner.waitFor("#links-list .link-row [data-action=copy]").click()
                try await owner.waitForToast({ $0 == "Link copied" }, "copied")
                let url = try await owner.executeAsync(Self.clipboard).string ?? ""
                #expect(url.hasPrefix(app.url("/s/")), "\(url)")
                let listed = try await owner.api("GET", "/api/galleries/\(gallery.id)/links")["links"]?.array ?? []
                #expect(listed.compactMap { $0["url"]?.string }.map(app.url) == [url], "the copied link is the link")
                try await owner.expectNoConsoleErrors()
                return (url, gallery.titles)
            }

            // A browser that never signed in.
            try await withBrowser(width: width, height: height, mobile: mobile) { visitor in
                try await visitor.openPublic(app, copied.0)
                #expect(try await visitor.publicState() == "ready")
                #expect(try await visitor.text(of: "#public-name") == "Harbour")
                try await visitor.waitForPublicTiles(3)
                #expect(try await visitor.publicTileTitles() == copied.1, "the owner's order")
                // Nothing to search, edit or reach beyond this gallery.
                for selector in [
                    "#q", "input[type=search]", "#search-form", ".tile-menu", "#gallery-upload", "#gallery-share",
                    "[data-action=add-to-gallery]", "a[href^='/galleries']", "a[href^='/search']",
                    "#drop-area:not([hidden])",
                ] {
                    #expect(try await visitor.find(selector) == nil, "no \(selector)")
                }
                #expect(try await !visitor.overflowsSideways(), "\(width)×\(height)")
                try await visitor.saveScreenshot(named: "public-grid-\(width)x\(height)")
                let credits = try await visitor.waitFor("#public-credits")
                #expect(try await credits.rect.height >= 44, "a finger's target")
                // Every image is a stored copy, under the link's own image route.
                let page = try #require(URL(string: copied.0)).path
                let sources = try await visitor.execute(
                    "return [...document.querySelectorAll('#public-grid img')].map(i => new URL(i.src).pathname)",
                    as: [String].self)
                #expect(sources.count == 3 && sources.allSatisfy { $0.hasPrefix(page + "/img/") }, "\(sources)")

                // The detail view: the second item, what its licence allows and its credit.
                try await visitor.waitFor("#public-grid .tile:nth-child(2) a").click()
                try await visitor.waitUntil("the detail view") { try await !visitor.isHidden("#detail") }
                #expect(try await visitor.text(of: "#detail-title") == copied.1[1])
                #expect(try await visitor.currentURL.contains("?item="))
                try await visitor.waitUntil("the stored preview") {
                    try await visitor.execute(
                        "const i = document.querySelector('#stage-image'); return i.complete && i.naturalWidth > 0"
                    ).bool == true
                }
                #expect(try await !visitor.text(of: "#detail-reuse-label").isEmpty)
                #expect(try await !visitor.text(of: "#detail-credit").isEmpty)
                #expect(try await visitor.find("#detail-tags a") == nil, "tags lead to no search")
                #expect(try await !visitor.overflowsSideways())
                try await visitor.waitFor("#detail-next").click()
                try await visitor.waitUntil("the next item") {
                    try await visitor.text(of: "#detail-title") == copied.1[2]
                }
                try await visitor.waitFor("#detail-close").click()
                try await visitor.waitUntil("the grid again") { try await visitor.isHidden("#detail") }
                #expect(try await !visitor.currentURL.contains("?item="))

                // The credits, in a sheet.
                try await visitor.waitFor("#public-credits").click()
                try await visitor.waitUntil("the credits") {
                    try await visitor.findAll("#credits-sheet[open] #credits-list .credits-item").count == 3
                }
                #expect(
                    try await visitor.execute(
                        "const r = document.querySelector('#credits-sheet').getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth"
                    ).bool == true, "the sheet fits the window")
                try await visitor.saveScreenshot(named: "public-\(width)x\(height)")
                try await visitor.expectNoConsoleErrors()
            }
        }
    }

    @Test func aPasswordLinkAsksForItAndRevokedAndExpiredLinksSaySo() async throws {
        let clock = TestClock(Date())
        try await WebApp.run(setting: Self.settings, users: [Self.owner], now: clock.now) { app in
            let (locked, revoked, expiring) = try await withBrowser { owner in
                let gallery = try await ownerGallery(owner, app, name: "Private", images: ["key"])
                let locked = try await owner.createLink(
                    gallery.id, ["kind": "view", "password": "open sesame"])
                #expect(locked.hasPassword)
                let revoked = try await owner.createLink(gallery.id, ["kind": "view"])
                try await owner.api("DELETE", "/api/links/\(revoked.id)")
                let tomorrow = ISO8601DateFormatter().string(from: clock.now().addingTimeInterval(86_400))
                let expiring = try await owner.createLink(gallery.id, ["kind": "view", "expiresAt": .string(tomorrow)])
                return (locked.url, revoked.url, expiring.url)
            }
            try await withBrowser(width: 390, height: 844, mobile: true) { visitor in
                try await visitor.openPublic(app, locked)
                #expect(try await visitor.publicState() == "password")
                #expect(try await visitor.find("#public-grid .tile") == nil, "nothing before the password")
                try await visitor.saveScreenshot(named: "public-password-390x844")
                let field = try await visitor.waitFor("#unlock-password")
                try await field.sendKeys("open says me")
                try await visitor.waitFor("#unlock-submit").click()
                try await visitor.waitUntil("the refusal") { try await !visitor.isHidden("#unlock-message") }
                #expect(try await visitor.text(of: "#unlock-message").contains("That password is not right"))
                #expect(try await visitor.publicState() == "password")
                try await field.clear()
                try await field.sendKeys("open sesame")
                try await visitor.waitFor("#unlock-submit").click()
                try await visitor.waitUntil("the gallery") { try await visitor.publicState() == "ready" }
                try await visitor.waitForPublicTiles(1)
                #expect(try await !visitor.overflowsSideways())
                // Opened again, the short-lived cookie still opens it.
                try await visitor.openPublic(app, locked)
                #expect(try await visitor.publicState() == "ready")

                try await visitor.openPublic(app, revoked)
                #expect(try await visitor.publicState() == "closed")
                #expect(try await visitor.text(of: "#closed-title") == "This link does not exist")
                #expect(try await visitor.find("#public-grid .tile") == nil)

                try await visitor.openPublic(app, expiring)
                #expect(try await visitor.publicState() == "ready", "until it expires")
                clock.advance(by: 2 * 86_400)
                try await visitor.openPublic(app, expiring)
                #expect(try await visitor.publicState() == "closed")
                #expect(try await visitor.text(of: "#closed-title") == "This link has expired")
                try await visitor.saveScreenshot(named: "public-expired-390x844")
                #expect(try await !visitor.overflowsSideways())
                try await visitor.expectNoConsoleErrors(exceptStatus: [401, 404, 410])
            }
        }
    }

    @Test func aVisitorDropsImagesAndTheOwnerFindsThemInTheGallery() async throws {
        try await WebApp.run(setting: Self.settings, users: [Self.owner]) { app in
            try await withBrowser { owner in
                let gallery = try await ownerGallery(owner, app, name: "Inbox", images: ["existing"])
                let link = try await owner.createLink(gallery.id, ["kind": "drop", "perHour": 2])
                try await owner.open(app, "/galleries/\(gallery.id)")
                try await owner.waitForGalleryTiles(1)

                // A visitor on a phone.
                try await withBrowser(width: 390, height: 844, mobile: true) { visitor in
                    try await visitor.openPublic(app, link.url)
                    #expect(try await visitor.publicState() == "ready")
                    #expect(try await !visitor.isHidden("#drop-area"))
                    #expect(try await visitor.isHidden("#public-grid"), "the gallery's items are not shown")
                    #expect(try await visitor.find("#public-grid .tile") == nil)
                    #expect(try await visitor.isHidden("#public-credits"))
                    #expect(try await visitor.waitFor("#drop-pick").rect.height >= 44)

                    // A file dropped on the page, then an image's address.
                    try await visitor.dropDrawnImage(on: "#drop-zone", name: "sketch.png")
                    let address = try await visitor.waitFor("#drop-url")
                    try await address.sendKeys(app.standInImage("postcard"))
                    try await #require(try await visitor.find("#drop-url-form button[type=submit]")).click()
                    try await visitor.waitUntil("both added") {
                        try await visitor.dropRows().filter { $0[1] == "added" }.count == 2
                    }
                    #expect(try await visitor.dropRows().map(\.[0]) == [app.standInImage("postcard"), "sketch.png"])
                    // The link takes two an hour: the third is refused, saying when to try again.
                    try await visitor.dropDrawnImage(on: "#drop-zone", name: "third.png")
                    try await visitor.waitUntil("the third refused") {
                        try await visitor.dropRows().first?[1] == "failed"
                    }
                    let refusal = try await visitor.dropRows().first?[2] ?? ""
                    #expect(
                        refusal.contains("Too many images for now") && refusal.contains("Try again in"), "\(refusal)")
                    #expect(try await !visitor.overflowsSideways())
                    try await visitor.saveScreenshot(named: "drop-390x844")
                    #expect(try await visitor.find("#public-grid .tile") == nil, "still nothing of the owner's")
                    try await visitor.expectNoConsoleErrors(exceptStatus: [429])
                }

                // The owner's open page shows them (the gallery's events), at the end, in the order sent.
                try await owner.waitForGalleryTiles(3)
                let stored = try #require(try await owner.gallery(gallery.id).items)
                #expect(stored.map(\.item.source) == [stored[0].item.source, "upload", "web"])
                #expect(try await owner.galleryTileIDs() == stored.map(\.id))
                let links = try await owner.api("GET", "/api/galleries/\(gallery.id)/links")["links"]?.array ?? []
                #expect(links.first?["drops"]?.int == 2)

                // A drop link that shows the gallery: its items, then what the visitor adds, at the end.
                let open = try await owner.createLink(gallery.id, ["kind": "drop", "showItems": true])
                try await withBrowser { visitor in
                    try await visitor.openPublic(app, open.url)
                    try await visitor.waitForPublicTiles(3)
                    #expect(try await visitor.publicTileTitles() == stored.map(\.item.title))
                    #expect(try await !visitor.isHidden("#drop-area"))
                    #expect(try await !visitor.isHidden("#public-credits"))
                    try await visitor.dropDrawnImage(on: "#drop-zone", name: "fourth.png")
                    try await visitor.waitForPublicTiles(4)
                    #expect(try await visitor.dropRows().map(\.[1]) == ["added"])
                    #expect(try await !visitor.overflowsSideways())
                    try await visitor.expectNoConsoleErrors()
                }
                try await owner.waitForGalleryTiles(4)
            }
        }
    }
}
