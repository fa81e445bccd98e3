// `RevisionField.lastEventID` and `RevisionField.ifMatch`, the revision headers of galleries (TesseraCore/HTTP).
// Input: one header value, the same bytes given to both.
import TesseraCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRevisionField(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = text(bytes(data, size))
    let lastEventID = RevisionField.lastEventID(value)
    expect(lastEventID == expected(value), "Last-Event-ID \(debug(value)): \(lastEventID), not \(expected(value))")
    checkRoundTrip(lastEventID, value)

    let ifMatch = RevisionField.ifMatch(value)
    checkRoundTrip(ifMatch, value)
    // A bare value is read as `Last-Event-ID` reads it, except `*` (any revision) and an empty one (none).
    let bare = trimmed(value)
    if bare != "*", !bare.isEmpty, !bare.hasPrefix("\""), !bare.hasPrefix("W/") {
        expect(ifMatch == lastEventID, "If-Match \(debug(value)): \(ifMatch), Last-Event-ID: \(lastEventID)")
    }
    return 0
}

/// What `Last-Event-ID` should be, written apart from the parser: blank is absent; else 1 to 18 ASCII digits.
func expected(_ value: String) -> RevisionField.Parsed {
    let bare = Array(trimmed(value).utf8)
    if bare.isEmpty { return .absent }
    guard bare.count <= 18, bare.allSatisfy({ (0x30...0x39).contains($0) }) else { return .invalid }
    return .revision(bare.reduce(0) { $0 * 10 + Int($1 - 0x30) })
}

/// A revision read is in range and reads back from each form a client sends it in.
func checkRoundTrip(_ parsed: RevisionField.Parsed, _ value: String) {
    guard case .revision(let revision) = parsed else { return }
    expect(revision >= 0 && revision < 1_000_000_000_000_000_000, "revision \(revision) from \(debug(value))")
    expect(RevisionField.lastEventID(String(revision)) == parsed, "Last-Event-ID \(revision) does not read back")
    for form in ["\"\(revision)\"", "W/\"\(revision)\"", String(revision)] {
        expect(RevisionField.ifMatch(form) == parsed, "If-Match \(form) does not read back")
    }
}

func trimmed(_ value: String) -> Substring {
    let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
    let bytes = Array(value.utf8)
    guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) })
    else { return "" }
    return Substring(text(bytes[first...last]))
}

func debug(_ value: String) -> String { String(reflecting: value) }
