import Testing

@testable import TesseraCore

@Suite("Duration in seconds and milliseconds")
struct DurationTests {
    @Test func keepsFractions() {
        #expect(Duration.milliseconds(1500).seconds == 1.5)
        #expect(Duration.microseconds(2500).milliseconds == 2.5)
        #expect(Duration.seconds(8).milliseconds == 8000)
        #expect(Duration.zero.seconds == 0)
        #expect(Duration.milliseconds(-250).seconds == -0.25)
    }
}
