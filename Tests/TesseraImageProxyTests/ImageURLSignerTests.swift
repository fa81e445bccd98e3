import Crypto
import Foundation
import TesseraCore
import Testing

@testable import TesseraImageProxy

@Suite struct ImageURLSignerTests {
    private let signer = ImageURLSigner(secret: Data(repeating: 7, count: 32))
    private let source = "https://cdn.pixabay.com/photo/2015/02/13/00/43/apples-634572_640.jpg?x=1&y=é"

    private func parts(_ path: String) -> (ImageVariant, String, String) {
        let parts = path.split(separator: "/").map(String.init)
        return (ImageVariant(rawValue: parts[1])!, parts[2], parts[3])
    }

    @Test func signedPathsVerifyToTheirSource() {
        for variant in ImageVariant.allCases {
            let path = signer.link(source, variant: variant)
            #expect(path.hasPrefix("/img/\(variant.rawValue)/"))
            let (parsedVariant, signature, encoded) = parts(path)
            #expect(signer.verify(variant: parsedVariant, signature: signature, encodedURL: encoded) == source)
        }
    }

    @Test func tamperingIsRefused() {
        let (_, signature, encoded) = parts(signer.link(source, variant: .thumb))
        #expect(signer.verify(variant: .original, signature: signature, encodedURL: encoded) == nil, "other variant")
        let otherURL = Base64URL.encode(Array("https://evil.example/x.jpg".utf8))
        #expect(signer.verify(variant: .thumb, signature: signature, encodedURL: otherURL) == nil, "other URL")
        var flipped = Array(signature)
        flipped[0] = flipped[0] == "A" ? "B" : "A"
        #expect(signer.verify(variant: .thumb, signature: String(flipped), encodedURL: encoded) == nil)
        #expect(signer.verify(variant: .thumb, signature: "", encodedURL: encoded) == nil)
        let otherSecret = ImageURLSigner(secret: Data(repeating: 8, count: 32))
        #expect(otherSecret.verify(variant: .thumb, signature: signature, encodedURL: encoded) == nil)
    }

    /// The signature is the first 16 bytes of Swift Crypto's HMAC-SHA256 of "variant\nURL" (22 characters),
    /// and the whole 32-byte code verifies too, so addresses an earlier version handed out keep working.
    @Test func signatureIsHMACSHA256OfVariantAndURLCutTo16Bytes() throws {
        let secret = Data((0..<32).map { UInt8($0 * 7 & 255) })
        let signer = ImageURLSigner(secret: secret)
        for variant in ImageVariant.allCases {
            let (_, signature, encoded) = parts(signer.link(source, variant: variant))
            let expected = HMAC<SHA256>.authenticationCode(
                for: Data("\(variant.rawValue)\n\(source)".utf8), using: SymmetricKey(data: secret))
            #expect(signature.count == 22)
            #expect(signature == Base64URL.encode(Array(expected).prefix(16)))
            #expect(encoded == Base64URL.encode(Array(source.utf8)))
            let whole = Base64URL.encode(Array(expected))
            #expect(signer.verify(variant: variant, signature: whole, encodedURL: encoded) == source)
            // Any other cut of the code is refused: 8, 15, 17 and 31 bytes.
            for count in [8, 15, 17, 31] {
                let cut = Base64URL.encode(Array(expected).prefix(count))
                #expect(signer.verify(variant: variant, signature: cut, encodedURL: encoded) == nil)
            }
            // The whole code with its second half changed is not the code.
            var changed = Array(expected)
            changed[31] ^= 1
            #expect(
                signer.verify(variant: variant, signature: Base64URL.encode(changed), encodedURL: encoded) == nil)
        }
        let media = try #require(signer.linkMedia(source)).split(separator: "/").map(String.init)
        #expect(media[1].count == 22)
        #expect(signer.verifyMedia(signature: media[1], encodedURL: media[2]) == source)
    }

    @Test func prekeyedHMACMatchesSwiftCryptoForEveryKeyAndMessageLength() {
        var generator = SplitMix64(seed: 11)
        // Keys shorter than, as long as and longer than SHA-256's 64-byte block (a long key is hashed first).
        for keyLength in [0, 1, 31, 32, 63, 64, 65, 200] {
            let key = (0..<keyLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let hmac = PrekeyedHMAC(key: key)
            for messageLength in [0, 1, 55, 56, 64, 119, 300] {
                let message = (0..<messageLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let split = messageLength / 3
                let code = message.withUnsafeBytes { bytes in
                    hmac.code(
                        UnsafeRawBufferPointer(rebasing: bytes[..<split]),
                        UnsafeRawBufferPointer(rebasing: bytes[split...]))
                }
                let expected = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
                #expect(Array(code) == Array(expected), "key \(keyLength) bytes, message \(messageLength)")
            }
        }
    }

    @Test func base64URLMatchesFoundationForEveryLength() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            #expect(Base64URL.decode(expected) == Data(bytes))
        }
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab+c") == nil)
        #expect(Base64URL.decode("abc=") == nil)
    }

    @Test func secretIsCreatedOnceAndKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tessera-secret-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try ImageSecret.load(configured: nil, dataDirectory: folder)
        let second = try ImageSecret.load(configured: nil, dataDirectory: folder)
        #expect(first.count == 32)
        #expect(first == second)
        let attributes = try FileManager.default.attributesOfItem(
            atPath: folder.appendingPathComponent("image-secret").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try ImageSecret.load(configured: "shared", dataDirectory: folder) != first)
    }

    @Test func signedPathsSplitOnEverySlashEvenBeforeAModifier() throws {
        // An emoji modifier after "/" joins it into one Character; the path must still have its three parts.
        let path = try #require(SignedImagePath("/img/thumb/\u{1F3FB}sig/c291cmNl"))
        #expect(path.variant == "thumb")
        #expect(path.signature == "\u{1F3FB}sig")
        #expect(path.encodedSource == "c291cmNl")
        #expect(SignedImagePath("/img/thumb/\u{301}/x/y") == nil, "four parts after /img is not a signed path")
    }

    @Test func aSharedLinksImageAddressIsTheSameSignedPath() throws {
        let plain = try #require(SignedImagePath("/img/preview/sig/c291cmNl"))
        #expect(SignedImagePath("/s/AAAAAAAAAAAAAAAAAAAA_-/img/preview/sig/c291cmNl") == plain)
        #expect(SignedImagePath("/s/too-short/img/preview/sig/c291cmNl") == nil)
        #expect(SignedImagePath("/s/AAAAAAAAAAAAAAAAAAAA_./img/preview/sig/c291cmNl") == nil, "not a slug's alphabet")
        #expect(SignedImagePath("/x/AAAAAAAAAAAAAAAAAAAA_-/img/preview/sig/c291cmNl") == nil)
    }

    /// A full address is read by its path; a service's own address is not one of ours, whatever it holds.
    @Test func addressesAreReadByTheirPath() throws {
        let plain = try #require(SignedImagePath("/img/thumb/sig/c291cmNl"))
        #expect(SignedImagePath("https://tessera.example/img/thumb/sig/c291cmNl") == plain)
        // The path a URL gives is percent-decoded: an escaped "/img/" is still the same address.
        #expect(SignedImagePath("https://tessera.example/%69mg/thumb/sig/c291cmNl") == plain)
        #expect(SignedImagePath("https://cdn.example.org/photos/2024/a%20b.jpg") == nil)
        #expect(SignedImagePath("https://cdn.example.org/images/thumb/sig/c291cmNl") == nil)
        #expect(SignedImagePath("/img") == nil)
    }
}
