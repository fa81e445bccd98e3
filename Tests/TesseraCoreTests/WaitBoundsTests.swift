import Testing

@testable import TesseraCore

/// A wait can come from a service's header or from a pause another server stored: whatever its size, saying it
/// never traps.
@Suite("Waits of any size")
struct WaitBoundsTests {
    @Test func wholeSecondsAreAtLeastOneAndAtMostAMonth() {
        #expect(BudgetWindow.wholeSeconds(0.2) == 1)
        #expect(BudgetWindow.wholeSeconds(41.1) == 42)
        #expect(BudgetWindow.wholeSeconds(-5) == 1)
        #expect(BudgetWindow.wholeSeconds(.nan) == 1)
        #expect(BudgetWindow.wholeSeconds(-.infinity) == 1)
        for huge in [1e300, .infinity, Double(Int.max), 9.3e18] {
            #expect(BudgetWindow.wholeSeconds(huge) == BudgetWindow.longestWait, "\(huge)")
        }
    }

    @Test func waitsReadAsAPersonReadsThem() {
        #expect(SourceError.wait(42) == "42 s")
        #expect(SourceError.wait(-3) == "0 s")
        #expect(SourceError.wait(900) == "15 min")
        #expect(SourceError.wait(7_500) == "2 h 5 min")
        #expect(SourceError.wait(7_201) == "2 h 1 min")
        #expect(SourceError.wait(Int.max).hasSuffix("min"))
        #expect(SourceError.rateLimited(.pixabay, retryAfter: Int.max).message.isEmpty == false)
    }
}
