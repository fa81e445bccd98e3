import Foundation
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// Owners and collaborators in Chromium (`TESSERA_AUTH=accounts`), at a phone's size and a laptop's: the
/// owner shares a gallery from its "Share" dialog, and the person it is shared with finds it under "Shared
/// with me", apart from their own galleries.
@Suite("Sharing a gallery in a browser", .chromedriver, .serialized)
struct ShareUITests {
    static let settings = ["TESSERA_AUTH": "accounts", "TESSERA_BCRYPT_COST": "4"]
    static let users = [(name: "ada", password: "correct horse"), (name: "bob", password: "battery staple")]

    /// Signs in through the API from a page of the app (the cookie is the browser's from then on), then makes a
    /// gallery; answers its id.
    private func signInAndCreate(_ browser: Browser, _ user: (name: String, password: String), gallery: String)
        async throws -> String
    {
        let id = try await browser.executeAsync(
            """
            const [name, password, gallery, done] = arguments;
            const headers = { 'content-type': 'application/json', 'x-tessera-client': 'web' };
            fetch('/api/session', { method: 'POST', headers, body: JSON.stringify({ name, password }) })
              .then(() => fetch('/api/galleries', { method: 'POST', headers, body: JSON.stringify({ name: gallery }) }))
              .then((answer) => answer.json()).then((made) => done(made.id), () => done(null));
            """, [.string(user.name), .string(user.password), .string(gallery)])
        return try #require(id.string)
    }

    @Test func theOwnerSharesAndTheMemberFindsItUnderSharedWithMe() async throws {
        try await WebApp.run(setting: Self.settings, users: Self.users) { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await browser.go(to: app.url("/login"))
                    let id = try await signInAndCreate(browser, Self.users[0], gallery: "Moodboard \(size.width)")
                    try await browser.open(app, "/galleries/\(id)")
                    let share = try await browser.waitFor("#gallery-share")
                    try await browser.waitUntil("the Share button") { try await !browser.isHidden("#gallery-share") }
                    try await share.click()
                    try await browser.waitUntil("the dialog") {
                        try await browser.execute("return document.querySelector('#share-dialog').open").bool == true
                    }
                    try await browser.waitUntil("nobody yet") {
                        try await browser.text(of: "#share-members").contains("Not shared with anyone yet.")
                    }
                    try await browser.waitFor("#share-name").sendKeys("nobody")
                    try await #require(try await browser.find("#share-form button[type=submit]")).click()
                    try await browser.waitUntil("the refusal") { try await !browser.isHidden("#share-message") }
                    #expect(try await browser.text(of: "#share-message") == "There is no user named \"nobody\".")

                    let field = try await browser.waitFor("#share-name")
                    try await field.clear()
                    try await field.sendKeys("Bob")
                    _ = try await browser.execute("document.querySelector('#share-role').value = 'editor'")
                    try await #require(try await browser.find("#share-form button[type=submit]")).click()
                    try await browser.waitUntil("bob listed") {
                        try await browser.execute(
                            "return document.querySelector('[data-name=\"bob\"] select')?.value ?? ''"
                        ).string == "editor"
                    }
                    #expect(try await browser.isHidden("#share-message"))
                    // The dialog fits the screen: nothing off its edges, nothing to scroll sideways.
                    let layout = try await browser.execute(
                        """
                        const box = document.querySelector('#share-dialog').getBoundingClientRect();
                        return [box.left >= 0, box.right <= innerWidth, box.bottom <= innerHeight,
                          document.documentElement.scrollWidth <= innerWidth];
                        """
                    ).array?.compactMap(\.bool)
                    #expect(layout == [true, true, true, true], "\(size)")
                    try await #require(try await browser.find("#share-done")).click()

                    // Bob signs in, makes a gallery of his own, and sees both, apart.
                    _ = try await signInAndCreate(browser, Self.users[1], gallery: "Bob's own \(size.width)")
                    try await browser.open(app, "/galleries")
                    try await browser.waitUntil("Shared with me") { try await !browser.isHidden("#shared-galleries") }
                    #expect(try await !browser.isHidden("#mine-heading"))
                    #expect(try await browser.text(of: "#gallery-cards").contains("Bob's own \(size.width)"))
                    let shared = try await browser.text(of: "#shared-cards")
                    #expect(shared.contains("Moodboard \(size.width)") && shared.contains("ada’s, you can edit"))
                    #expect(try await browser.find("#shared-cards .card-delete") == nil, "only the owner deletes")
                    // The unknown name's 404 is the one error the console shows.
                    #expect(try await browser.consoleErrorMessages().filter { !$0.contains("404") } == [])
                }
            }
        }
    }
}
