// `MultipartForm(contentType:body:)`, the upload forms of galleries and drop links (TesseraCore/HTTP).
// Input: the `Content-Type` value on the first line, the body after it. The body is a slice of the input,
// so it does not start at index 0: a part read by position from the wrong start shows up.
import Foundation
import TesseraCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Data(bytes(data, size))
    guard let newline = input.firstIndex(of: 0x0A) else { return 0 }
    let contentType = text(input[..<newline])
    let body = input[(newline + 1)...]
    guard let form = MultipartForm(contentType: contentType, body: body) else { return 0 }
    expect(form.parts.count <= MultipartForm.maxParts, "\(form.parts.count) parts")
    for (index, part) in form.parts.enumerated() {
        expect(
            part.data.startIndex >= body.startIndex && part.data.endIndex <= body.endIndex,
            "part \(index) at \(part.data.startIndex)..<\(part.data.endIndex), outside the body's "
                + "\(body.startIndex)..<\(body.endIndex)")
        if let name = part.name {
            expect(form.part(named: name)?.data == form.parts.first { $0.name == name }?.data, "part(named:)")
        }
    }
    // The parts' bytes, written out again under the same boundary, read back as the same parts.
    guard let boundary = boundary(contentType) else { return 0 }
    var again = Data()
    for part in form.parts {
        again.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"p\"\r\n\r\n".utf8))
        again.append(part.data)
        again.append(Data("\r\n".utf8))
    }
    again.append(Data("--\(boundary)--\r\n".utf8))
    let reread = MultipartForm(contentType: contentType, body: again)?.parts.map(\.data)
    expect(reread == form.parts.map(\.data), "the parts do not read back: \(form.parts.map(\.data))")
    return 0
}

/// The boundary as the form must have read it: the first `boundary` parameter, quotes dropped.
func boundary(_ contentType: String) -> String? {
    for piece in contentType.split(separator: ";").dropFirst() {
        let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
        let value = pair[1]
        return value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"")
            ? String(value.dropFirst().dropLast()) : value
    }
    return nil
}
