import Testing

@testable import TesseraCore

@Suite("Revisions in If-Match and Last-Event-ID")
struct RevisionFieldTests {
    @Test func lastEventIDIsDigitsOnly() {
        #expect(RevisionField.lastEventID(nil) == .absent)
        #expect(RevisionField.lastEventID("") == .absent)
        #expect(RevisionField.lastEventID(" \t") == .absent)
        #expect(RevisionField.lastEventID("17") == .revision(17))
        #expect(RevisionField.lastEventID(" 017 ") == .revision(17))
        #expect(RevisionField.lastEventID("0") == .revision(0))
        #expect(RevisionField.lastEventID("999999999999999999") == .revision(999_999_999_999_999_999))
        for hostile in [
            "-1", "-1099511627776", "-9223372036854775808", "9223372036854775807", "9223372036854775808",
            "1000000000000000000", "+1", "1 2", "0x10", "1e3", "1.0", "１７", "١٧", "\"17\"", "17\u{0}",
        ] {
            #expect(RevisionField.lastEventID(hostile) == .invalid, "\(hostile)")
        }
    }

    @Test func ifMatchTakesEveryFormOfAnETag() {
        #expect(RevisionField.ifMatch(nil) == .absent)
        #expect(RevisionField.ifMatch("*") == .absent)
        #expect(RevisionField.ifMatch(" * ") == .absent)
        #expect(RevisionField.ifMatch("17") == .revision(17))
        #expect(RevisionField.ifMatch("\"17\"") == .revision(17))
        #expect(RevisionField.ifMatch("W/\"17\"") == .revision(17))
        for hostile in [
            "", "\"", "\"\"", "W/", "W/17", "\"-1\"", "-1", "\"17", "17\"", "\"9223372036854775808\"", "**",
        ] {
            #expect(RevisionField.ifMatch(hostile) == .invalid, "\(hostile)")
        }
    }

    /// Found by `scripts/fuzz-parsers revision-field`: a space and a combining mark after it are one Character,
    /// and trimming by Characters took the mark away with the space (" \u{5C2}" read as no header at all).
    @Test func onlySpacesAndTabsAreTrimmed() {
        #expect(RevisionField.lastEventID(" \u{5C2}") == .invalid)
        #expect(RevisionField.lastEventID(" \u{301}5") == .invalid)
        #expect(RevisionField.lastEventID("5 \u{301}") == .invalid)
        #expect(RevisionField.lastEventID("\t17\u{301}\t") == .invalid)
        #expect(RevisionField.lastEventID(" \u{1F600}7 ") == .invalid)
        #expect(RevisionField.lastEventID("\t 17 \t") == .revision(17))
        #expect(RevisionField.ifMatch("\t\u{301}\"5\"") == .invalid)
    }
}
