import TesseraWebDriver
import Testing

/// Shares one chromedriver among the tests of a suite: `@Suite(.chromedriver)`. Starting it costs a
/// fraction of a second and every test opens its own session anyway.
struct ChromedriverTrait: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Chromedriver.withDriver { try await function() }
    }
}

extension Chromedriver {
    /// Runs `body` with a new driver as `Chromedriver.current`, and stops the driver afterwards.
    static func withDriver<T>(_ body: () async throws -> T) async throws -> T {
        let driver = try await start()
        do {
            let result = try await $current.withValue(driver, operation: body)
            await driver.stop()
            return result
        } catch {
            await driver.stop()
            throw error
        }
    }
}

extension Trait where Self == ChromedriverTrait {
    static var chromedriver: Self { Self() }
}

/// Opens a browser on the suite's chromedriver (or a driver of its own outside such a suite), runs `body`
/// and quits. When `body` throws, a screenshot named after the test is saved first, to show what the page looked like.
func withBrowser<T>(
    width: Int = 1280, height: Int = 800, mobile: Bool = false, _ body: (Browser) async throws -> T
) async throws -> T {
    guard let driver = Chromedriver.current else {
        return try await Chromedriver.withDriver {
            try await withBrowser(width: width, height: height, mobile: mobile, body)
        }
    }
    let browser = try await Browser.open(driver: driver, width: width, height: height, mobile: mobile)
    do {
        let result = try await body(browser)
        try await browser.quit()
        return result
    } catch {
        _ = try? await browser.saveScreenshot(named: "failed-\(Test.current?.name ?? "test")")
        try? await browser.quit()
        throw error
    }
}
