import Foundation

/// The parts of a `multipart/form-data` body (RFC 7578), enough for an upload form: each part's name,
/// file name, content type and bytes. The body is already in memory (its size capped by the caller).
public struct MultipartForm: Sendable {
    public struct Part: Sendable {
        public var name: String?
        public var fileName: String?
        public var contentType: String?
        /// A slice of the body given to `init`, with its indices.
        public var data: Data
    }

    public let parts: [Part]

    /// RFC 2046's longest boundary: every part is found by a scan for it, so a longer one only costs time.
    public static let maxBoundaryLength = 70
    /// More parts than any form of this API has (an upload has three), refused rather than read one by one.
    public static let maxParts = 16

    /// `nil` when `contentType` names no boundary (or one longer than 70 characters), the body does not follow
    /// it, or it has more than `maxParts` parts.
    public init?(contentType: String, body: Data) {
        guard contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundary = Self.parameter("boundary", in: contentType),
            (1...Self.maxBoundaryLength).contains(boundary.utf8.count)
        else { return nil }
        let delimiter = Data("--\(boundary)".utf8)
        var parts: [Part] = []
        var cursor = body.startIndex
        guard let first = body.range(of: delimiter, in: cursor..<body.endIndex) else { return nil }
        cursor = first.upperBound
        while true {
            // "--" after a delimiter ends the body.
            if body[cursor...].starts(with: Data("--".utf8)) { break }
            guard parts.count < Self.maxParts else { return nil }
            guard body[cursor...].starts(with: Data("\r\n".utf8)) else { return nil }
            cursor += 2
            guard let headerEnd = body.range(of: Data("\r\n\r\n".utf8), in: cursor..<body.endIndex),
                let next = body.range(of: Data("\r\n".utf8) + delimiter, in: headerEnd.upperBound..<body.endIndex)
            else { return nil }
            var part = Part(data: body[headerEnd.upperBound..<next.lowerBound])
            let headers = String(decoding: body[cursor..<headerEnd.lowerBound], as: UTF8.self)
            for line in headers.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "content-disposition" {
                    part.name = Self.parameter("name", in: value)
                    part.fileName = Self.parameter("filename", in: value)
                } else if name == "content-type" {
                    part.contentType = value
                }
            }
            parts.append(part)
            cursor = next.upperBound
        }
        self.parts = parts
    }

    public func part(named name: String) -> Part? { parts.first { $0.name == name } }

    /// What an upload that is no such form is told.
    public static let uploadHint =
        "Send the image as a multipart/form-data part named \"file\" (a boundary of 1 to \(maxBoundaryLength) "
        + "characters, at most \(maxParts) parts)."

    /// A `key=value` or `key="value"` parameter of a header value.
    static func parameter(_ key: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == key else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }
}
