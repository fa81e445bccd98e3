import Foundation

extension AccountService {
    /// The prefix of every personal access token's secret, so a leaked one is easy to recognise (and to scan for).
    public static let tokenPrefix = "tsr_"

    /// Makes a personal access token; its secret is returned this once and stored only as a hash.
    public func createToken(for account: Account, name: String, scope: TokenScope) async throws(AccountError)
        -> (token: AccessTokenInfo, secret: String)
    {
        // Counted as the API document counts (code points, before trimming), so nothing it refuses passes here.
        guard name.unicodeScalars.count <= 100 else { throw .invalidTokenName }
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw .invalidTokenName }
        let secret = Self.tokenPrefix + Secret.random(bytes: 32).base64URL
        let info = AccessTokenInfo(
            id: "t_" + Secret.random(bytes: 12).base64URL, name: name, scope: scope, createdAt: now(), lastUsedAt: nil)
        try await run {
            try await store.insertToken(TokenRecord(info: info, accountID: account.id, secretHash: Secret.hash(secret)))
        }
        return (info, secret)
    }

    public func tokens(of account: Account) async throws(AccountError) -> [AccessTokenInfo] {
        try await run { try await store.tokens(of: account.id) }
    }

    public func revokeToken(id: String, of account: Account) async throws(AccountError) {
        guard try await run({ try await store.deleteToken(id: id, of: account.id) }) else { throw .noSuchToken(id) }
    }

    /// The account a bearer secret belongs to, if it is a live token; records its use (once a minute at most).
    public func principal(bearer secret: String) async throws(AccountError) -> Principal? {
        guard secret.hasPrefix(Self.tokenPrefix) else { return nil }
        guard let (token, account) = try await run({ try await store.token(secretHash: Secret.hash(secret)) }) else {
            return nil
        }
        let moment = now()
        if token.lastUsedAt.map({ moment.timeIntervalSince($0) > 60 }) ?? true {
            try await run { try await store.touchToken(id: token.id, at: moment) }
        }
        return Principal(account: account, credential: .token(id: token.id, scope: token.scope))
    }
}
