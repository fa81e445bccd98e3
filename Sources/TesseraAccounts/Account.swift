import Foundation

/// A user's name: 1–64 of `a-z`, `0-9`, `.`, `_`, `-`, starting with a letter or digit. Stored lower-case, so
/// "Ada" and "ada" are one account and a name reads the same in every URL (docs/accounts.md).
public struct AccountName: Hashable, Sendable, CustomStringConvertible, Codable {
    public let value: String

    public init(_ text: String) throws(AccountError) {
        let lowered = text.lowercased()
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
        guard (1...64).contains(lowered.count), lowered.allSatisfy(allowed.contains),
            let first = lowered.first, first.isLetter || first.isNumber
        else { throw .invalidName(text) }
        value = lowered
    }

    /// A name read back from a store, already checked when it was stored.
    public init(trusted stored: String) { value = stored }

    public var description: String { value }

    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// A random, opaque account id (`u_` and 22 base64url characters): what other tables name, so a name can
/// change without touching them.
public struct AccountID: Hashable, Sendable, CustomStringConvertible {
    public let value: String
    public init(_ value: String) { self.value = value }
    public var description: String { value }
    static func random() -> AccountID { AccountID("u_" + Secret.random(bytes: 16).base64URL) }
}

/// One person who can sign in.
public struct Account: Hashable, Sendable {
    public let id: AccountID
    public let name: AccountName
    public let isAdmin: Bool
    public let createdAt: Date

    public init(id: AccountID, name: AccountName, isAdmin: Bool, createdAt: Date) {
        self.id = id
        self.name = name
        self.isAdmin = isAdmin
        self.createdAt = createdAt
    }
}

/// What a personal access token may do: `read` is refused every state-changing request.
public enum TokenScope: String, Sendable, Hashable, CaseIterable, Codable {
    case read
    case write
}

/// A personal access token as its owner sees it: never its secret, which is shown once when it is made.
public struct AccessTokenInfo: Hashable, Sendable {
    public let id: String
    public let name: String
    public let scope: TokenScope
    public let createdAt: Date
    public let lastUsedAt: Date?

    public init(id: String, name: String, scope: TokenScope, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.name = name
        self.scope = scope
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// Who a request comes from in accounts mode, and how it proved it.
public struct Principal: Sendable, Hashable {
    public enum Credential: Sendable, Hashable {
        /// The session cookie; `hash` names the session row (SHA-256 of the cookie's secret, hex).
        case session(hash: String)
        /// A personal access token (`Authorization: Bearer`).
        case token(id: String, scope: TokenScope)
    }

    public let account: Account
    public let credential: Credential

    public init(account: Account, credential: Credential) {
        self.account = account
        self.credential = credential
    }

    /// Whether this principal may change things: sessions and `write` tokens.
    public var mayWrite: Bool {
        if case .token(_, .read) = credential { return false }
        return true
    }
}
