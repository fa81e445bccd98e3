import Crypto
import Foundation
import TesseraCore

/// Makes and checks the `/img/{variant}/{signature}/{source}` URLs handed to clients.
///
/// The signature is HMAC-SHA256 over the variant and the source URL with a secret only the server knows,
/// so the image proxy fetches only addresses the server itself handed out: it is not an open proxy.
/// The source URL travels base64url-encoded in the path, so a URL is self-contained and cacheable forever.
public struct ImageURLSigner: ImageLinking {
    private let secret: Data

    public init(secret: Data) {
        self.secret = secret
    }

    // `SymmetricKey` is not `Sendable`; making one from the bytes per call is cheap.
    private var key: SymmetricKey { SymmetricKey(data: secret) }

    public func link(_ upstreamURL: String, variant: ImageVariant) -> String {
        "/img/\(variant.rawValue)/\(signature(upstreamURL, variant))/\(Base64URL.encode(Data(upstreamURL.utf8)))"
    }

    /// The source URL a signed path stands for, or `nil` when the signature does not match.
    public func verify(variant: ImageVariant, signature: String, encodedURL: String) -> String? {
        guard let signatureData = Base64URL.decode(signature), let urlData = Base64URL.decode(encodedURL),
            let url = String(data: urlData, encoding: .utf8)
        else { return nil }
        let message = Self.message(url, variant)
        guard HMAC<SHA256>.isValidAuthenticationCode(signatureData, authenticating: message, using: key) else {
            return nil
        }
        return url
    }

    private func signature(_ url: String, _ variant: ImageVariant) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Self.message(url, variant), using: key)))
    }

    private static func message(_ url: String, _ variant: ImageVariant) -> Data {
        Data("\(variant.rawValue)\n\(url)".utf8)
    }
}

/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5).
enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ string: String) -> Data? {
        var base64 = string.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
