import Foundation
import Synchronization
import TesseraCore

/// Accounts, sessions and personal access tokens: the one door to `AccountStoring`, used by the server
/// (`AccountsController`, `AccountMiddleware`) and by `tessera user`.
///
/// bcrypt runs on a small pool of its own threads, never on Swift's cooperative ones: each hash takes
/// a tenth of a second or more by design.
public final class AccountService: Sendable {
    public let store: any AccountStoring
    public let settings: AccountSettings
    /// The clock sessions, links and the back-off go by (tests move it instead of waiting).
    public let now: @Sendable () -> Date
    let hashing: BlockingPool
    /// A hash of a password nobody has, checked when the name is unknown so that both answers take as long.
    private let dummyHash = Mutex<String?>(nil)

    public init(
        store: any AccountStoring, settings: AccountSettings, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.settings = settings
        self.now = now
        hashing = BlockingPool(size: 2, name: "bcrypt", stackSize: 1 << 20)
    }

    // MARK: - Accounts

    public func add(name: String, password: String, admin: Bool) async throws(AccountError) -> Account {
        let name = try AccountName(name)
        try Self.check(password)
        let hash = try await hash(password)
        let account = Account(id: .random(), name: name, isAdmin: admin, createdAt: now())
        try await run { try await store.insert(AccountRecord(account: account, passwordHash: hash)) }
        return account
    }

    public func accounts() async throws(AccountError) -> [Account] {
        try await run { try await store.accounts() }
    }

    public func account(named text: String) async throws(AccountError) -> Account {
        let name = try AccountName(text)
        guard let record = try await run({ try await store.account(named: name) }) else {
            throw .noSuchAccount(name)
        }
        return record.account
    }

    /// Sets a new password; every session of the account ends (its tokens stay).
    public func setPassword(name: String, password: String) async throws(AccountError) {
        let account = try await account(named: name)
        try Self.check(password)
        let hash = try await hash(password)
        guard try await run({ try await store.setPassword(hash, of: account.id) }) else {
            throw .noSuchAccount(account.name)
        }
    }

    /// Removes the account, its sessions and its tokens. The last admin stays while other accounts exist.
    public func remove(name: String) async throws(AccountError) -> Account {
        let account = try await account(named: name)
        let all = try await accounts()
        if account.isAdmin, all.count > 1, !all.contains(where: { $0.isAdmin && $0.id != account.id }) {
            throw .lastAdmin(account.name)
        }
        guard try await run({ try await store.remove(account.id) }) else { throw .noSuchAccount(account.name) }
        return account
    }

    /// The length in code points, as docs/openapi.yaml's `minLength` counts it (not in `Character`s, which would
    /// refuse a password the document allows); the cap in bytes, as far as bcrypt reads.
    static func check(_ password: String) throws(AccountError) {
        guard password.unicodeScalars.count >= AccountSettings.minimumPasswordLength else {
            throw .passwordTooShort(minimum: AccountSettings.minimumPasswordLength)
        }
        guard password.utf8.count <= AccountSettings.maximumPasswordBytes else {
            throw .passwordTooLong(maximumBytes: AccountSettings.maximumPasswordBytes)
        }
    }

    // MARK: - Signing in

    /// Checks a name and password and opens a session; returns the account and the cookie's secret.
    ///
    /// - Parameter client: the client address's key; failures back off per name and per address alike,
    ///   whether or not the name exists, with the same error.
    public func signIn(name: String, password: String, client: String) async throws(AccountError)
        -> (account: Account, secret: String)
    {
        let moment = now()
        let nameKey = "name:" + String(name.lowercased().prefix(64))
        let keys = [nameKey, "address:" + client]
        if let until = try await run({ try await store.loginLockedUntil(keys: keys, at: moment) }) {
            throw .tooManyAttempts(retryAfter: max(1, Int(until.timeIntervalSince(moment).rounded(.up))))
        }
        let record = try? AccountName(name)
        let stored: AccountRecord? =
            if let record { try await run { try await store.account(named: record) } } else { nil }
        let hash = if let stored { stored.passwordHash } else { try await dummy() }
        let matches = await hashing.run { PasswordHash.verify(password, against: hash) } ?? false
        guard matches, let account = stored?.account else {
            try await run { try await store.recordLoginFailure(keys: keys, at: moment, policy: settings.backoff) }
            throw .wrongCredentials
        }
        let secret = Secret.random(bytes: 32).base64URL
        try await run {
            try await store.clearLoginFailures(key: nameKey)
            try await store.insertSession(
                SessionRecord(hash: Secret.hash(secret), accountID: account.id, createdAt: moment, lastSeenAt: moment))
            try await store.deleteExpiredSessions(
                createdBefore: moment - settings.sessionLifetime.seconds,
                seenBefore: moment - settings.sessionIdle.seconds)
        }
        return (account, secret)
    }

    /// The session a cookie's secret names, if it has not expired; records the activity.
    public func session(secret: String) async throws(AccountError) -> Principal? {
        let hash = Secret.hash(secret)
        guard let (session, account) = try await run({ try await store.session(hash: hash) }) else { return nil }
        let moment = now()
        guard isLive(session, at: moment) else {
            try await run { try await store.deleteSession(hash: hash) }
            return nil
        }
        // Not a write per request: activity is recorded once per tenth of the idle time, at most once a minute.
        if moment.timeIntervalSince(session.lastSeenAt) > min(60, settings.sessionIdle.seconds / 10) {
            try await run { try await store.touchSession(hash: hash, at: moment) }
        }
        return Principal(account: account, credential: .session(hash: hash))
    }

    public func signOut(_ principal: Principal) async throws(AccountError) {
        guard case .session(let hash) = principal.credential else { return }
        try await run { try await store.deleteSession(hash: hash) }
    }

    /// Ends every session of the account, on every server sharing the database (tokens stay).
    public func signOutEverywhere(_ account: Account) async throws(AccountError) {
        _ = try await run { try await store.deleteSessions(of: account.id) }
    }

    /// Whether `principal`'s session or token still stands: not signed out (here or everywhere), expired,
    /// revoked, nor its account removed. Records no activity, so an open event stream asking this on each
    /// heartbeat does not keep an idle session alive.
    public func isCurrent(_ principal: Principal) async throws(AccountError) -> Bool {
        switch principal.credential {
        case .session(let hash):
            guard let (session, account) = try await run({ try await store.session(hash: hash) }),
                account.id == principal.account.id
            else { return false }
            return isLive(session, at: now())
        case .token(let id, _):
            return try await run { try await store.tokens(of: principal.account.id) }.contains { $0.id == id }
        }
    }

    /// Within both its absolute lifetime and its idle time: the one rule for whether a session still stands.
    private func isLive(_ session: SessionRecord, at moment: Date) -> Bool {
        moment.timeIntervalSince(session.createdAt) <= settings.sessionLifetime.seconds
            && moment.timeIntervalSince(session.lastSeenAt) <= settings.sessionIdle.seconds
    }

    // MARK: - Hashing

    func hash(_ password: String) async throws(AccountError) -> String {
        let cost = settings.bcryptCost
        guard let hash = await hashing.run({ PasswordHash.make(password, cost: cost) }) else {
            throw .storage(underlying: CancellationError())
        }
        return hash
    }

    private func dummy() async throws(AccountError) -> String {
        if let hash = dummyHash.withLock({ $0 }) { return hash }
        let hash = try await hash(Secret.random(bytes: 16).base64URL)
        dummyHash.withLock { $0 = hash }
        return hash
    }

    /// Runs a store call, turning what it throws into an `AccountError` (`storage` unless it is one).
    func run<T>(_ body: () async throws -> T) async throws(AccountError) -> T {
        do {
            return try await body()
        } catch let error as AccountError {
            throw error
        } catch {
            throw .storage(underlying: error)
        }
    }
}

extension Date {
    fileprivate static func - (date: Date, seconds: Double) -> Date { date.addingTimeInterval(-seconds) }
}
