import Foundation
import TesseraWebDriver
import Testing

/// The WebDriver client against real headless Chromium, on small pages given as `data:` URLs.
@Suite(.chromedriver)
struct BrowserClientTests {
    static let page = dataURL(
        """
        <!doctype html>
        <html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Client test</title></head>
        <body>
        <form id="form"><input id="name" name="name"><button id="go" type="button">Go</button></form>
        <p id="out">waiting</p>
        <div id="menu" style="height: 60px">menu</div>
        <div id="scroller" style="height: 100px; overflow: auto"><div style="height: 2000px">tall</div></div>
        <script>
        const out = document.getElementById('out');
        const menu = document.getElementById('menu');
        document.getElementById('go').onclick = () => { out.textContent = 'clicked'; };
        document.getElementById('form').onsubmit = (event) => {
            event.preventDefault();
            out.textContent = 'submitted ' + document.getElementById('name').value;
        };
        menu.oncontextmenu = (event) => { event.preventDefault(); out.textContent = 'context menu'; };
        menu.ondblclick = () => { out.textContent = 'double click'; };
        window.events = [];
        for (const type of ['keydown', 'touchstart', 'touchend']) {
            document.addEventListener(type, (event) => events.push(type + (event.key ? ' ' + event.key : '')));
        }
        console.info('page ready');
        console.error('first problem');
        </script>
        <script>throw new Error('second problem');</script>
        </body></html>
        """)

    static let otherPage = dataURL("<!doctype html><title>Other page</title><p>other</p>")

    @Test func findsClicksTypesAndRunsScripts() async throws {
        try await withBrowser { browser in
            try await browser.go(to: Self.page)
            #expect(try await browser.title == "Client test")
            #expect(try await browser.find("#missing") == nil)
            #expect(try await browser.findAll("form input, form button").count == 2)

            let out = try await browser.waitFor("#out")
            try await #require(browser.find("#go")).click()
            #expect(try await out.text == "clicked")

            let input = try #require(try await browser.find("#name"))
            try await input.sendKeys("tiles" + Key.enter)
            try await browser.waitUntil("the form to be submitted") { try await out.text == "submitted tiles" }
            #expect(try await input.property("value") == "tiles")
            #expect(try await input.attribute("name") == "name")
            #expect(try await input.attribute("placeholder") == nil)
            #expect(try await browser.activeElement()?.attribute("id") == "name")
            try await input.clear()
            #expect(try await input.property("value") == "")

            let form = try #require(try await browser.find("#form"))
            #expect(try await form.find("input")?.attribute("id") == "name")
            #expect(try await form.findAll("*").count == 2)
            #expect(try await out.tagName == "p")
            #expect(try await out.isDisplayed)
            #expect(try await out.cssValue("display") == "block")
            #expect(try await out.rect.width > 0)

            #expect(try await browser.execute("return arguments[0].id + arguments[1]", [input.json, 2]) == "name2")
            #expect(try await browser.execute("return [1, 2, 3]", as: [Int].self) == [1, 2, 3])
            let found = try await browser.execute("return document.querySelectorAll('p')", as: [Element].self)
            #expect(try await found.first?.text == "submitted tiles")
            let late = try await browser.executeAsync("const done = arguments[0]; setTimeout(() => done(42), 10);")
            #expect(late.int == 42)
        }
    }

    @Test func errorsNameWhatFailed() async throws {
        try await withBrowser { browser in
            try await browser.go(to: Self.otherPage)
            let thrown = await #expect(throws: WebDriverError.self) {
                try await browser.execute("throw new Error('x')")
            }
            #expect(thrown?.code == "javascript error")
            let timeout = await #expect(throws: WebDriverError.self) {
                try await browser.waitFor("#never", timeout: .milliseconds(200))
            }
            #expect(timeout?.description.contains("#never") == true)
        }
    }

    @Test func keysAndPointerActions() async throws {
        try await withBrowser { browser in
            try await browser.go(to: Self.page)
            let input = try #require(try await browser.find("#name"))
            try await input.click()
            try await browser.pressKeys("ab" + Key.backspace + "c")
            #expect(try await input.property("value") == "ac")
            #expect(try await browser.execute("return events").array?.contains("keydown Backspace") == true)

            let out = try #require(try await browser.find("#out"))
            let menu = try #require(try await browser.find("#menu"))
            try await browser.contextClick(on: menu)
            #expect(try await out.text == "context menu")
            try await browser.doubleClick(on: menu)
            #expect(try await out.text == "double click")

            let scroller = try #require(try await browser.find("#scroller"))
            try await browser.wheel(on: scroller, deltaY: 300)
            try await browser.waitUntil("the wheel to scroll") {
                try await scroller.property("scrollTop").double ?? 0 > 0
            }
            try await browser.releaseActions()
        }
    }

    @Test func historyAndScreenshots() async throws {
        try await withBrowser { browser in
            try await browser.go(to: Self.page)
            try await browser.go(to: Self.otherPage)
            try await browser.back()
            #expect(try await browser.title == "Client test")
            #expect(try await browser.currentURL == Self.page)
            try await browser.forward()
            #expect(try await browser.title == "Other page")
            try await browser.refresh()
            #expect(try await browser.find("p")?.text == "other")

            let png = try await browser.screenshot()
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            let file = try await browser.saveScreenshot(named: "browser-client-test")
            #expect(FileManager.default.fileExists(atPath: file.path))
            try FileManager.default.removeItem(at: file)
        }
    }

    @Test func consoleErrorsAndUncaughtExceptions() async throws {
        try await withBrowser { browser in
            try await browser.go(to: Self.page)
            let errors = try await browser.consoleErrors().map(\.message)
            #expect(errors.count == 2)
            #expect(errors.contains { $0.contains("first problem") })
            #expect(errors.contains { $0.contains("Uncaught Error: second problem") })
            // Read again: the entries chromedriver already handed out are still there.
            let entries = try await browser.consoleEntries()
            #expect(entries.contains { $0.level == "INFO" && $0.message.contains("page ready") })
            #expect(try await browser.consoleErrors().count == 2)
        }
    }

    @Test func mobileEmulation() async throws {
        try await withBrowser(width: 390, height: 844, mobile: true) { browser in
            try await browser.go(to: Self.page)
            #expect(try await browser.execute("return window.innerWidth") == 390)
            #expect(try await browser.execute("return matchMedia('(pointer: coarse)').matches") == true)
            #expect(try await browser.execute("return 'ontouchstart' in window") == true)
            try await browser.longPress(on: try #require(try await browser.find("#menu")), duration: .milliseconds(300))
            let events = try await browser.execute("return events").array ?? []
            #expect(events.contains("touchstart") && events.contains("touchend"))
        }
    }

    /// Every UI suite starts its driver at once when the tests begin. Each must get a port of its own and answer
    /// there until it is stopped itself, whatever the other drivers do.
    @Test func driversStartedTogetherEachKeepTheirOwnPort() async throws {
        let drivers = try await withThrowingTaskGroup(of: Chromedriver.self) { group in
            for _ in 0..<4 { group.addTask { try await Chromedriver.start() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(drivers.map(\.port)).count == drivers.count, "\(drivers.map(\.port))")
        await drivers[0].stop()
        for driver in drivers.dropFirst() {
            #expect(try await driver.get("/status")["ready"]?.bool == true, "port \(driver.port)")
            await driver.stop()
        }
    }
}

/// A page given inline, so these tests need no server.
private func dataURL(_ html: String) -> String {
    "data:text/html;charset=utf-8," + (html.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? html)
}
