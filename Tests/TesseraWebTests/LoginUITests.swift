import Foundation
import Hummingbird
import HummingbirdTesting
import TesseraTestSupport
import TesseraWebDriver
import Testing

/// `TESSERA_AUTH=accounts` in Chromium: the sign-in page and signing out at a phone's size and a laptop's, and
/// a form on a page of another origin that posts to Tessera with the user's cookie.
@Suite("Signing in and out in a browser", .chromedriver, .serialized)
struct LoginUITests {
    static let settings = ["TESSERA_AUTH": "accounts", "TESSERA_BCRYPT_COST": "4"]
    static let users = [(name: "ada", password: "correct horse")]

    private func signIn(_ browser: Browser, password: String = "correct horse") async throws {
        let name = try await browser.waitFor("#login-name")
        try await name.clear()
        try await name.sendKeys("ada")
        let field = try #require(try await browser.find("#login-password"))
        try await field.clear()
        try await field.sendKeys(password)
        try await #require(try await browser.find("#login-submit")).click()
    }

    @Test func signingInComesBackToThePageAndSigningOutEndsTheSession() async throws {
        try await WebApp.run(setting: Self.settings, users: Self.users) { app in
            for size in phoneAndDesktop {
                try await withBrowser(width: size.width, height: size.height, mobile: size.mobile) { browser in
                    try await browser.go(to: app.url("/galleries"))
                    try await browser.waitUntil("the sign-in page") {
                        try await browser.currentURL.hasSuffix("/login?next=/galleries")
                    }
                    // The card fits the screen: nothing to scroll sideways, the button big enough to tap.
                    let layout = try await browser.execute(
                        """
                        const card = document.querySelector('.login-card').getBoundingClientRect();
                        const button = document.querySelector('#login-submit').getBoundingClientRect();
                        return [document.documentElement.scrollWidth <= innerWidth, card.left >= 0,
                          card.right <= innerWidth, button.height >= 44];
                        """
                    ).array?.compactMap(\.bool)
                    #expect(layout == [true, true, true, true], "\(size)")

                    try await signIn(browser, password: "not it")
                    try await browser.waitUntil("the refusal") {
                        try await !browser.isHidden("#login-message")
                    }
                    #expect(try await browser.text(of: "#login-message") == "The name or the password is wrong.")

                    try await signIn(browser)
                    try await browser.waitUntil("the galleries page") {
                        try await browser.currentURL == app.url("/galleries")
                    }
                    try await browser.waitUntil("the account menu") { try await !browser.isHidden("#account") }
                    #expect(try await browser.text(of: "#account-name") == "ada")
                    let cookieVisible = try await browser.execute("return document.cookie.includes('tessera_session')")
                    #expect(cookieVisible.bool == false, "HttpOnly: no script reads the session")

                    try await #require(try await browser.find("#account summary")).click()
                    try await browser.waitFor("#sign-out").click()
                    try await browser.waitUntil("the sign-in page after signing out") {
                        try await browser.currentURL.hasSuffix("/login")
                    }
                    try await browser.go(to: app.url("/"))
                    try await browser.waitUntil("signed out for good") {
                        try await browser.currentURL.hasSuffix("/login")
                    }
                    #expect(try await browser.consoleErrorMessages().filter { !$0.contains("401") } == [])
                }
            }
        }
    }

    @Test func signingOutEverywhereFromTheMenuEndsTheSession() async throws {
        try await WebApp.run(setting: Self.settings, users: Self.users) { app in
            try await withBrowser(width: 1280, height: 800, mobile: false) { browser in
                try await browser.go(to: app.url("/"))
                try await signIn(browser)
                try await browser.waitUntil("the app") { try await !browser.isHidden("#account") }
                try await #require(try await browser.find("#account summary")).click()
                try await browser.waitFor("#sign-out-everywhere").click()
                try await browser.waitUntil("the sign-in page") { try await browser.currentURL.hasSuffix("/login") }
                let me = try await browser.executeAsync(
                    "fetch('/api/me').then(r => arguments[0](r.status))")
                #expect(me.int == 401)
            }
        }
    }

    /// A page on another origin of the same machine (another port: the same site, so the browser sends the
    /// SameSite=Lax cookie) posts a form whose text/plain body is valid JSON. Tessera must refuse it.
    @Test func aFormOnAnotherOriginChangesNothing() async throws {
        try await WebApp.run(setting: Self.settings, users: Self.users) { app in
            let target = app.url("/api/galleries")
            let router = Router()
            router.get("/") { _, _ in
                var response = Response(
                    status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                    body: ResponseBody(
                        byteBuffer: ByteBuffer(
                            string: """
                                <!doctype html><title>Another site</title>
                                <form id="attack" method="post" action="\(target)" enctype="text/plain">
                                <input name='{"name":"Planted","x":"' value='"}'></form>
                                """)))
                response.headers[.cacheControl] = "no-store"
                return response
            }
            try await Application(router: router).test(.live) { other in
                let otherOrigin = "http://127.0.0.1:\(try #require(other.port))"
                try await withBrowser(width: 1280, height: 800, mobile: false) { browser in
                    try await browser.go(to: app.url("/"))
                    try await signIn(browser)
                    try await browser.waitUntil("the app") { try await !browser.isHidden("#account") }
                    try await browser.go(to: otherOrigin + "/")
                    _ = try await browser.waitFor("#attack")
                    try await browser.execute("document.getElementById('attack').submit()")
                    try await browser.waitUntil("the form's answer") {
                        try await browser.currentURL == target
                    }
                    let answer = try await browser.execute("return document.body.innerText")
                    #expect(answer.string?.contains("cross_site") == true, "\(answer)")
                    try await browser.go(to: app.url("/galleries"))
                    let galleries = try await browser.executeAsync(
                        "fetch('/api/galleries').then(r => r.json()).then(list => arguments[0](list.length))")
                    #expect(galleries.int == 0, "no gallery was planted")
                }
            }
        }
    }
}
