import Crypto
import Foundation
import TesseraCore

/// Makes and checks the `/img/{variant}/{signature}/{source}` URLs handed to clients.
///
/// The signature is HMAC-SHA256 over the variant and the source URL with a secret only the server knows,
/// so the image proxy fetches only addresses the server itself handed out: it is not an open proxy.
/// The source URL travels base64url-encoded in the path, so a URL is self-contained and cacheable forever.
public struct ImageURLSigner: ImageLinking {
    private let prototype: Prototype

    public init(secret: Data) {
        prototype = Prototype(HMAC<SHA256>(key: SymmetricKey(data: secret)))
    }

    /// An HMAC already keyed, copied for each URL: keying hashes the secret, and every image URL of every
    /// result is signed. `HMAC` is a value type that is not marked `Sendable`; this one is only ever copied.
    private final class Prototype: @unchecked Sendable {
        let hmac: HMAC<SHA256>
        init(_ hmac: HMAC<SHA256>) { self.hmac = hmac }
    }

    private func code(_ message: some DataProtocol) -> HMAC<SHA256>.MAC {
        var hmac = prototype.hmac
        hmac.update(data: message)
        return hmac.finalize()
    }

    /// Written byte by byte into one buffer: every image address of every search result is made here (three
    /// or four an item), on the answer's path.
    public func link(_ upstreamURL: String, variant: ImageVariant) -> String {
        var path: [UInt8] = []
        path.reserveCapacity(upstreamURL.utf8.count * 4 / 3 + 64)
        path.append(contentsOf: "/img/".utf8)
        path.append(contentsOf: variant.rawValue.utf8)
        path.append(UInt8(ascii: "/"))
        code(Self.message(upstreamURL, variant)).withUnsafeBytes {
            Base64URL.append($0.bindMemory(to: UInt8.self), to: &path)
        }
        path.append(UInt8(ascii: "/"))
        var source = upstreamURL
        source.withUTF8 { Base64URL.append($0, to: &path) }
        return String(decoding: path, as: UTF8.self)
    }

    /// The source URL a signed path stands for, or `nil` when the signature does not match.
    public func verify(variant: ImageVariant, signature: String, encodedURL: String) -> String? {
        guard let signatureData = Base64URL.decode(signature), let urlData = Base64URL.decode(encodedURL),
            let url = String(data: urlData, encoding: .utf8)
        else { return nil }
        let message = Self.message(url, variant)
        // `MAC == Data` compares in constant time, so timing does not reveal how much of a forgery matched.
        guard code(message) == signatureData else { return nil }
        return url
    }

    private static func message(_ url: String, _ variant: ImageVariant) -> [UInt8] {
        message(url, purpose: variant.rawValue)
    }

    /// What is signed: the purpose (an image variant, or `media`) and the URL, so a signature made for one
    /// route or size is worthless for another.
    private static func message(_ url: String, purpose: String) -> [UInt8] {
        var message = Array(purpose.utf8)
        message.append(UInt8(ascii: "\n"))
        message.append(contentsOf: url.utf8)
        return message
    }

    // MARK: - Media previews

    /// Not an `ImageVariant` name, so no image signature verifies as a media one.
    static let mediaPurpose = "media"

    /// `/media/{signature}/{source}`: a preview clip played through `MediaProxy`.
    public func linkMedia(_ upstreamURL: String) -> String? {
        let signature = Base64URL.encode(Array(code(Self.message(upstreamURL, purpose: Self.mediaPurpose))))
        return "/media/\(signature)/\(Base64URL.encode(upstreamURL.utf8))"
    }

    /// The source URL a signed media path stands for, or `nil` when the signature does not match.
    public func verifyMedia(signature: String, encodedURL: String) -> String? {
        guard let signatureData = Base64URL.decode(signature), let urlData = Base64URL.decode(encodedURL),
            let url = String(data: urlData, encoding: .utf8)
        else { return nil }
        guard code(Self.message(url, purpose: Self.mediaPurpose)) == signatureData else { return nil }
        return url
    }
}

/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5), on bytes: every image URL of every
/// search result goes through here, so it avoids Foundation's string replacing.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    static func encode(_ data: some Collection<UInt8>) -> String {
        var output = [UInt8]()
        output.reserveCapacity((data.count * 4 + 2) / 3)
        let bytes = Array(data)
        bytes.withUnsafeBufferPointer { append($0, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// `bytes` encoded, added to the end of `output`.
    static func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var index = 0
        while index < bytes.count {
            let left = bytes.count - index
            let bits =
                UInt32(bytes[index]) << 16 | (left > 1 ? UInt32(bytes[index + 1]) << 8 : 0)
                | (left > 2 ? UInt32(bytes[index + 2]) : 0)
            output.append(alphabet[Int(bits >> 18 & 63)])
            output.append(alphabet[Int(bits >> 12 & 63)])
            if left > 1 { output.append(alphabet[Int(bits >> 6 & 63)]) }
            if left > 2 { output.append(alphabet[Int(bits & 63)]) }
            index += 3
        }
    }

    /// The bytes, or `nil` for anything that is not unpadded base64url.
    static func decode(_ string: String) -> Data? {
        var output = Data()
        output.reserveCapacity(string.utf8.count * 3 / 4)
        var bits: UInt32 = 0
        var count = 0
        for byte in string.utf8 {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            bits = bits << 6 | UInt32(value)
            count += 1
            if count == 4 {
                output.append(contentsOf: [UInt8(bits >> 16 & 255), UInt8(bits >> 8 & 255), UInt8(bits & 255)])
                bits = 0
                count = 0
            }
        }
        switch count {
        case 0: break
        case 2: output.append(UInt8(bits >> 4 & 255))
        case 3: output.append(contentsOf: [UInt8(bits >> 10 & 255), UInt8(bits >> 2 & 255)])
        default: return nil
        }
        return output
    }
}

/// `/img/{variant}/{signature}/{source}` (a path, or a URL with that path; also under a link, `/s/{slug}/img/…`),
/// taken apart: what `link` makes.
/// Only `verify` (through the proxy) says whether it is genuine.
public struct SignedImagePath: Sendable, Hashable {
    public let variant: String
    public let signature: String
    public let encodedSource: String

    public init?(_ url: String) {
        // Most addresses asked about are a service's own (grouping a search page reads every thumbnail's):
        // without "/img/" in them, nor a percent escape that a URL's path would decode into one, they cannot
        // be one of ours, and parsing each as a URL showed in the profile.
        guard Self.mentionsImagePath(url) || url.utf8.contains(UInt8(ascii: "%")) else { return nil }
        let path = url.hasPrefix("/") ? url : (URL(string: url)?.path ?? "")
        // Split on the "/" scalars, not on Characters: a combining mark or an emoji modifier right after a "/"
        // forms one Character with it, which would hide that separator.
        var parts = path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // A shared link's copy of the same address, /s/{slug}/img/…, as a link's visitors get it (same signature).
        if parts.count == 7, parts[0].isEmpty, parts[1] == "s", Self.isSlug(parts[2]) {
            parts.removeSubrange(1...2)
        }
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "img" else { return nil }
        variant = parts[2]
        signature = parts[3]
        encodedSource = parts[4]
    }

    /// Whether "/img/" is in `url`, on its bytes (`contains` here is Foundation's, through NSString on Linux).
    static func mentionsImagePath(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { bytes in
            guard bytes.count >= 5 else { return false }
            for start in 0...(bytes.count - 5) where bytes[start] == UInt8(ascii: "/") {
                if bytes[start + 1] == UInt8(ascii: "i"), bytes[start + 2] == UInt8(ascii: "m"),
                    bytes[start + 3] == UInt8(ascii: "g"), bytes[start + 4] == UInt8(ascii: "/")
                {
                    return true
                }
            }
            return false
        }
    }

    /// A link's slug as docs/openapi.yaml reads it: 22 characters of A–Z, a–z, 0–9, "_" and "-".
    static func isSlug(_ text: String) -> Bool {
        text.utf8.count == 22
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }
}
