import Crypto
import Foundation

/// Random secrets and the hashes they are stored as: session ids and token secrets are 256 random bits,
/// kept in the database only as SHA-256, so a copy of the database lets no one sign in.
enum Secret {
    static func random(bytes count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// SHA-256 of the secret's text, as 64 hex digits.
    static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

extension Data {
    /// Base64url without padding: safe in cookies, headers and URLs as it is.
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
