import Crypto
import Foundation
import TesseraCore

/// Makes and checks the `/img/{variant}/{signature}/{source}` URLs handed to clients.
///
/// The signature is HMAC-SHA256 over the variant and the source URL with a secret only the server knows,
/// so the image proxy fetches only addresses the server itself handed out: it is not an open proxy. It is
/// cut to its first 16 bytes (22 characters), as RFC 4868 cuts HMAC-SHA-256 for IPsec: 128 bits are beyond
/// guessing, and the 21 characters saved are random, so no compressor takes them out of a search answer,
/// where they were the largest part of what did not compress (docs/images.md). A whole 32-byte signature
/// verifies too, so every address a server of an earlier version handed out keeps working.
/// The source URL travels base64url-encoded in the path, so a URL is self-contained and cacheable forever.
public struct ImageURLSigner: ImageLinking {
    private let hmac: PrekeyedHMAC

    public init(secret: Data) {
        hmac = PrekeyedHMAC(key: secret)
    }

    /// The code of `purpose`, a newline, and `url`: what is signed names the purpose (an image variant, or
    /// `media`) beside the URL, so a signature made for one route or size is worthless for another.
    private func code(_ url: UnsafeBufferPointer<UInt8>, purpose: String) -> SHA256.Digest {
        var purpose = purpose
        return purpose.withUTF8 { purpose in
            withUnsafeBytes(of: UInt8(ascii: "\n")) { newline in
                hmac.code(UnsafeRawBufferPointer(purpose), newline, UnsafeRawBufferPointer(url))
            }
        }
    }

    private func code(_ url: String, purpose: String) -> SHA256.Digest {
        var url = url
        return url.withUTF8 { code($0, purpose: purpose) }
    }

    /// The bytes of a signature as handed out: the code's first half.
    static let signatureBytes = 16

    /// Whether `signature` (16 bytes, or the 32 of a whole code) is the start of `code`, compared in constant
    /// time so timing does not reveal how much of a forgery matched.
    static func matches(_ signature: Data, _ code: SHA256.Digest) -> Bool {
        guard signature.count == signatureBytes || signature.count == SHA256.byteCount else { return false }
        return code.withUnsafeBytes { code in
            var difference: UInt8 = 0
            for (index, byte) in signature.enumerated() { difference |= byte ^ code[index] }
            return difference == 0
        }
    }

    /// Written straight into the string's storage: every image address of every search result is made here
    /// (three or four an item), on the answer's path. The message goes to the HMAC in its two parts as raw
    /// bytes, which spares `DataProtocol`'s generic walk over regions, the largest part of a signature's cost
    /// before (docs/search.md, "Signing image addresses").
    public func link(_ upstreamURL: String, variant: ImageVariant) -> String {
        var purpose = variant.rawValue
        var source = upstreamURL
        return source.withUTF8 { url in
            let mac = code(url, purpose: purpose)
            return purpose.withUTF8 { purpose in
                // "/img/" variant "/" signature "/" source
                let length =
                    5 + purpose.count + 1 + Base64URL.length(Self.signatureBytes) + 1 + Base64URL.length(url.count)
                return String(unsafeUninitializedCapacity: length) { output in
                    var at = 0
                    func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                        _ = UnsafeMutableBufferPointer(rebasing: output[at...]).initialize(from: bytes)
                        at += bytes.count
                    }
                    let prefix: StaticString = "/img/"
                    put(UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
                    put(purpose)
                    output[at] = UInt8(ascii: "/")
                    at += 1
                    mac.withUnsafeBytes { mac in
                        let signature = UnsafeBufferPointer(
                            rebasing: mac.bindMemory(to: UInt8.self)[..<Self.signatureBytes])
                        at += Base64URL.write(signature, into: output, at: at)
                    }
                    output[at] = UInt8(ascii: "/")
                    at += 1
                    at += Base64URL.write(url, into: output, at: at)
                    return at
                }
            }
        }
    }

    /// The source URL a signed path stands for, or `nil` when the signature does not match.
    public func verify(variant: ImageVariant, signature: String, encodedURL: String) -> String? {
        guard let signatureData = Base64URL.decode(signature), let urlData = Base64URL.decode(encodedURL),
            let url = String(data: urlData, encoding: .utf8)
        else { return nil }
        guard Self.matches(signatureData, code(url, purpose: variant.rawValue)) else { return nil }
        return url
    }

    // MARK: - Media previews

    /// Not an `ImageVariant` name, so no image signature verifies as a media one.
    static let mediaPurpose = "media"

    /// `/media/{signature}/{source}`: a preview clip played through `MediaProxy`.
    public func linkMedia(_ upstreamURL: String) -> String? {
        let signature = Base64URL.encode(
            Array(code(upstreamURL, purpose: Self.mediaPurpose).prefix(Self.signatureBytes)))
        return "/media/\(signature)/\(Base64URL.encode(upstreamURL.utf8))"
    }

    /// The source URL a signed media path stands for, or `nil` when the signature does not match.
    public func verifyMedia(signature: String, encodedURL: String) -> String? {
        guard let signatureData = Base64URL.decode(signature), let urlData = Base64URL.decode(encodedURL),
            let url = String(data: urlData, encoding: .utf8)
        else { return nil }
        guard Self.matches(signatureData, code(url, purpose: Self.mediaPurpose)) else { return nil }
        return url
    }
}

/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5), on bytes: every image URL of every
/// search result goes through here, so it avoids Foundation's string replacing.
enum Base64URL {
    private static let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for index in 0..<64 { table[Int(alphabet.utf8Start[index])] = UInt8(index) }
        return table
    }()

    static func encode(_ data: some Collection<UInt8>) -> String {
        let bytes = Array(data)
        return bytes.withUnsafeBufferPointer { bytes in
            String(unsafeUninitializedCapacity: length(bytes.count)) { write(bytes, into: $0, at: 0) }
        }
    }

    /// The length of `count` bytes encoded, without padding.
    static func length(_ count: Int) -> Int { (count * 4 + 2) / 3 }

    /// `bytes` encoded into `output` from `start`, which has room for `length(bytes.count)`; returns that length.
    static func write(
        _ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, at start: Int
    ) -> Int {
        let symbols = alphabet.utf8Start
        var at = start
        var index = 0
        // Whole groups of three bytes first, then the one or two left over.
        while index + 3 <= bytes.count {
            let bits = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output[at] = symbols[Int(bits >> 18 & 63)]
            output[at + 1] = symbols[Int(bits >> 12 & 63)]
            output[at + 2] = symbols[Int(bits >> 6 & 63)]
            output[at + 3] = symbols[Int(bits & 63)]
            at += 4
            index += 3
        }
        let left = bytes.count - index
        if left > 0 {
            let bits = UInt32(bytes[index]) << 16 | (left > 1 ? UInt32(bytes[index + 1]) << 8 : 0)
            output[at] = symbols[Int(bits >> 18 & 63)]
            output[at + 1] = symbols[Int(bits >> 12 & 63)]
            at += 2
            if left > 1 {
                output[at] = symbols[Int(bits >> 6 & 63)]
                at += 1
            }
        }
        return at - start
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
