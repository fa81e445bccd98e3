import Foundation
import TesseraCore

/// An account with its bcrypt hash, as the store keeps it.
public struct AccountRecord: Sendable, Hashable {
    public let account: Account
    public let passwordHash: String

    public init(account: Account, passwordHash: String) {
        self.account = account
        self.passwordHash = passwordHash
    }
}

/// A signed-in browser: named by the SHA-256 of its cookie's secret, never by the secret.
public struct SessionRecord: Sendable, Hashable {
    public let hash: String
    public let accountID: AccountID
    public let createdAt: Date
    public let lastSeenAt: Date

    public init(hash: String, accountID: AccountID, createdAt: Date, lastSeenAt: Date) {
        self.hash = hash
        self.accountID = accountID
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }
}

/// A personal access token as stored: its public part and the SHA-256 of its secret.
public struct TokenRecord: Sendable, Hashable {
    public let info: AccessTokenInfo
    public let accountID: AccountID
    public let secretHash: String

    public init(info: AccessTokenInfo, accountID: AccountID, secretHash: String) {
        self.info = info
        self.accountID = accountID
        self.secretHash = secretHash
    }
}

/// Failed sign-ins under one key (`name:<name>` or `address:<hex>`) and how long the key is locked.
public struct LoginFailures: Sendable, Hashable {
    public let count: Int
    public let lockedUntil: Date?

    public init(count: Int, lockedUntil: Date?) {
        self.count = count
        self.lockedUntil = lockedUntil
    }
}

/// The accounts' contract: users, sessions, personal access tokens and the login back-off. Its SQLite
/// engine is `SQLiteAccountStore`, its PostgreSQL one `TesseraPostgres.PostgresAccountStore`; one suite holds both
/// to it. Every method is one transaction. Moments come from the caller (`AccountService`'s clock), so
/// expiry is tested without waiting.
public protocol AccountStoring: Sendable {
    /// Throws `AccountError.nameTaken` when the name is in use.
    func insert(_ record: AccountRecord) async throws
    func account(named name: AccountName) async throws -> AccountRecord?
    func account(id: AccountID) async throws -> Account?
    /// Every account, by name.
    func accounts() async throws -> [Account]
    /// Sets the hash and ends the account's sessions (a new password signs everyone out); false when unknown.
    func setPassword(_ hash: String, of id: AccountID) async throws -> Bool
    func setAdmin(_ isAdmin: Bool, of id: AccountID) async throws -> Bool
    /// Removes the account with its sessions and tokens; false when unknown.
    func remove(_ id: AccountID) async throws -> Bool

    func insertSession(_ session: SessionRecord) async throws
    func session(hash: String) async throws -> (session: SessionRecord, account: Account)?
    /// Records activity on a session (for the idle expiry).
    func touchSession(hash: String, at moment: Date) async throws
    func deleteSession(hash: String) async throws
    /// Ends every session of the account; returns how many there were.
    @discardableResult
    func deleteSessions(of id: AccountID) async throws -> Int
    /// Drops sessions created before `createdBefore` or last seen before `seenBefore`.
    @discardableResult
    func deleteExpiredSessions(createdBefore: Date, seenBefore: Date) async throws -> Int

    func insertToken(_ token: TokenRecord) async throws
    /// The account's tokens, newest first.
    func tokens(of id: AccountID) async throws -> [AccessTokenInfo]
    func token(secretHash: String) async throws -> (token: AccessTokenInfo, account: Account)?
    func touchToken(id: String, at moment: Date) async throws
    /// False when the account has no such token.
    func deleteToken(id: String, of account: AccountID) async throws -> Bool

    /// Adds a failure under each key and, at every `policy.threshold`-th, locks that key for the policy's
    /// time (doubling each time, up to its cap). Counts older than `policy.forgetAfter` start again.
    func recordLoginFailure(keys: [String], at moment: Date, policy: LoginBackoff) async throws
    /// The latest moment any of `keys` is locked until, if one is locked after `moment`.
    func loginLockedUntil(keys: [String], at moment: Date) async throws -> Date?
    func clearLoginFailures(key: String) async throws
}

/// How failed sign-ins slow down guessing: every `threshold` failures under one key lock it for `lockout`,
/// doubled each further time up to `maxLockout`; a key with no failure for `forgetAfter` starts again.
public struct LoginBackoff: Sendable, Hashable {
    public var threshold = 5
    public var lockout: Duration = .seconds(60)
    public var maxLockout: Duration = .seconds(3600)
    public var forgetAfter: Duration = .seconds(86_400)

    public init(threshold: Int = 5, lockout: Duration = .seconds(60)) {
        self.threshold = threshold
        self.lockout = lockout
        self.maxLockout = max(lockout, .seconds(3600))
    }

    /// The lock after the `count`-th failure, if that failure locks.
    public func lock(afterFailures count: Int) -> Duration? {
        guard threshold > 0, count > 0, count % threshold == 0 else { return nil }
        let doublings = min(count / threshold - 1, 20)
        let seconds = lockout.seconds * Double(1 << doublings)
        return .milliseconds(Int64(min(seconds, maxLockout.seconds) * 1000))
    }
}
