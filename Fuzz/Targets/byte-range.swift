// `ByteRange(header:size:)`, the `Range` header of `/media` (TesseraCore/HTTP).
// Input: the body's size in decimal on the first line (negative or unreadable: 1,000), the header after it
// (no second line: no header).
import Foundation
import TesseraCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzByteRange(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = lines(bytes(data, size))
    let bodySize = Int(input[0]).map { max(0, $0) } ?? 1_000
    let header = input.count > 1 ? input.dropFirst().joined(separator: "\n") : nil
    check(ByteRange(header: header, size: bodySize), header: header, size: bodySize)
    return 0
}

func check(_ range: ByteRange, header: String?, size: Int) {
    switch range {
    case .whole:
        break
    case .partial(let bytes):
        expect(header != nil, "a range without a header")
        expect(bytes.lowerBound >= 0 && bytes.upperBound < size, "\(bytes) outside a body of \(size) bytes")
        // The range it names, asked for exactly, is itself (for bounds of the 18 digits a header may have).
        guard bytes.upperBound < 1_000_000_000_000_000_000 else { return }
        let exact = "bytes=\(bytes.lowerBound)-\(bytes.upperBound)"
        expect(ByteRange(header: exact, size: size) == range, "\(exact) is not \(range) of \(size) bytes")
    case .unsatisfiable:
        let text = header?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        expect(text.hasPrefix("bytes="), "416 for a header that asks no byte range: \(header ?? "nil")")
    }
}
