// `SignedImagePath` and `ImageReference(parsing:)` (TesseraCore): the two readings of a signed image URL.
// Input: one address or path, given to both; each part of a signed path is read as a reference too.
import Foundation
import TesseraCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSignedImagePath(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = text(bytes(data, size))
    checkReference(value)
    guard let path = SignedImagePath(value) else { return 0 }
    for part in [path.variant, path.signature, path.encodedSource] {
        expect(!part.unicodeScalars.contains("/"), "a part with a \"/\": \(String(reflecting: part))")
        checkReference(part)
    }
    // The path it names, written out, is itself; so is its copy under a link.
    let plain = "/img/\(path.variant)/\(path.signature)/\(path.encodedSource)"
    expect(SignedImagePath(plain) == path, "\(String(reflecting: plain)) does not read back")
    let shared = "/s/AAAAAAAAAAAAAAAAAAAA_-" + plain
    expect(SignedImagePath(shared) == path, "\(String(reflecting: shared)) does not read back")
    return 0
}

func checkReference(_ value: String) {
    guard let reference = try? ImageReference(parsing: value) else { return }
    switch reference {
    case .web(let url):
        expect(url == value, "web reference \(String(reflecting: url)) from \(String(reflecting: value))")
    case .library(let path, _):
        expect(path.hasPrefix("/") && !path.contains("\0"), "library path \(String(reflecting: path))")
    case .stored(let hash):
        expect(ImageReference.isValidHash(hash), "stored hash \(String(reflecting: hash))")
    }
    // The signed form is what caches are keyed by: it must read back as the same reference.
    let again = try? ImageReference(parsing: reference.string)
    expect(again == reference, "\(reference) reads back as \(String(describing: again))")
}
