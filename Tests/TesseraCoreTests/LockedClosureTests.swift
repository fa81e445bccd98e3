import Testing

@testable import TesseraCore

@Suite("LockedClosure")
struct LockedClosureTests {
    @Test func aReplacementIsWhatIsCalled() {
        let locked = LockedClosure<@Sendable (Int) -> String>({ "first \($0)" })
        #expect(locked.function(1) == "first 1")
        locked.function = { "second \($0)" }
        #expect(locked.function(2) == "second 2")
    }
}
