/// What a `Range` header asks of a body of known size (RFC 9110 §14): one range in bytes, or the whole.
///
/// Only single ranges are served as `206`. Several ranges would need a multipart answer that no media
/// element asks for, so they get the whole body (`200`), which the RFC allows and browsers accept; so does a
/// header this does not understand (another unit, bad syntax). Only a well-formed range that starts past
/// the end is `416`.
public enum ByteRange: Equatable, Sendable {
    case whole
    case partial(ClosedRange<Int>)
    case unsatisfiable

    public init(header: String?, size: Int) {
        guard let header else {
            self = .whole
            return
        }
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let specs = text.dropFirst(6).split(separator: ",", omittingEmptySubsequences: false)
        guard specs.count == 1, let spec = Self.spec(specs[0]) else {
            self = .whole
            return
        }
        switch spec {
        case .from(let first, let last):
            guard first < size else {
                self = .unsatisfiable
                return
            }
            self = .partial(first...min(last ?? (size - 1), size - 1))
        case .suffix(let length):
            guard length > 0, size > 0 else {
                self = .unsatisfiable
                return
            }
            self = .partial(max(0, size - length)...(size - 1))
        }
    }

    private enum Spec {
        case from(Int, Int?)
        case suffix(Int)
    }

    /// `a-b`, `a-` or `-n`, digits only; `nil` for anything else (including `b < a`).
    private static func spec(_ text: Substring) -> Spec? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        func number(_ part: Substring) -> Int? {
            guard !part.isEmpty, part.count <= 18, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber) else {
                return nil
            }
            return Int(part)
        }
        if parts[0].isEmpty { return number(parts[1]).map(Spec.suffix) }
        guard let first = number(parts[0]) else { return nil }
        if parts[1].isEmpty { return .from(first, nil) }
        guard let last = number(parts[1]), last >= first else { return nil }
        return .from(first, last)
    }
}
