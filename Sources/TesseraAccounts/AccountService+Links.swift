import Foundation

/// Passwords of public links (docs/accounts.md, "Public and drop links"): bcrypt at the accounts' cost, on the
/// accounts' own threads, and the sign-in back-off under the keys `link:<link id>` and
/// `link-address:<client>`, so guessing one link's password is slowed down from any address, and one address
/// guessing many links too. Kept apart from sign-in's address key: a mistyped link password must not lock
/// the visitor's household out of signing in.
extension AccountService {
    /// A link password's bcrypt hash; the same length rules as an account's (8 characters to 72 bytes).
    public func hashLinkPassword(_ password: String) async throws(AccountError) -> String {
        try Self.check(password)
        return try await hash(password)
    }

    /// Whether `password` is the one `hash` was made from, for link `linkID` asked from `client`. Locked keys
    /// answer `tooManyAttempts` without checking anything; a wrong password counts under both keys, a right one
    /// clears the link's count (not the address's).
    public func verifyLinkPassword(_ password: String, hash: String, linkID: String, client: String)
        async throws(AccountError) -> Bool
    {
        let moment = now()
        let linkKey = "link:" + linkID
        let keys = [linkKey, "link-address:" + client]
        if let until = try await run({ try await store.loginLockedUntil(keys: keys, at: moment) }) {
            throw .tooManyAttempts(retryAfter: max(1, Int(until.timeIntervalSince(moment).rounded(.up))))
        }
        // Longer than bcrypt reads is never right (and is not hashed at all).
        let matches =
            password.utf8.count <= AccountSettings.maximumPasswordBytes
            ? await hashing.run { PasswordHash.verify(password, against: hash) } ?? false : false
        if matches {
            try await run { try await store.clearLoginFailures(key: linkKey) }
        } else {
            try await run { try await store.recordLoginFailure(keys: keys, at: moment, policy: settings.backoff) }
        }
        return matches
    }
}
