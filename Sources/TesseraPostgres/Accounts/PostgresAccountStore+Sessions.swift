import Foundation
import Logging
import PostgresNIO
import TesseraAccounts

// MARK: - Sessions and tokens

extension PostgresAccountStore {
    public func insertSession(_ session: SessionRecord) async throws {
        try await database.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO account_session (hash, account_id, created_at, last_seen_at)
                VALUES (\(session.hash), \(session.accountID.value), \(session.createdAt.timeIntervalSince1970),
                    \(session.lastSeenAt.timeIntervalSince1970))
                """, logger: .quiet)
            return ()
        }
    }

    public func session(hash: String) async throws -> (session: SessionRecord, account: Account)? {
        try await database.withConnection { connection in
            for try await (created, seen, id, name, admin, accountCreated) in try await connection.query(
                """
                SELECT s.created_at, s.last_seen_at, a.id, a.name, a.is_admin, a.created_at
                FROM account_session s JOIN account a ON a.id = s.account_id WHERE s.hash = \(hash)
                """, logger: .quiet
            ).decode((Double, Double, String, String, Bool, Double).self) {
                let account = Account(
                    id: AccountID(id), name: AccountName(trusted: name), isAdmin: admin,
                    createdAt: Date(timeIntervalSince1970: accountCreated))
                let session = SessionRecord(
                    hash: hash, accountID: account.id, createdAt: Date(timeIntervalSince1970: created),
                    lastSeenAt: Date(timeIntervalSince1970: seen))
                return (session, account)
            }
            return nil
        }
    }

    public func touchSession(hash: String, at moment: Date) async throws {
        let seconds = moment.timeIntervalSince1970
        try await database.withConnection { connection in
            try await connection.query(
                "UPDATE account_session SET last_seen_at = greatest(last_seen_at, \(seconds)) WHERE hash = \(hash)",
                logger: .quiet)
            return ()
        }
    }

    public func deleteSession(hash: String) async throws {
        try await database.withConnection { connection in
            try await connection.query("DELETE FROM account_session WHERE hash = \(hash)", logger: .quiet)
            return ()
        }
    }

    public func deleteSessions(of id: AccountID) async throws -> Int {
        let text = id.value
        return try await database.withConnection { connection in
            try await Self.count(connection, "DELETE FROM account_session WHERE account_id = \(text) RETURNING 1")
        }
    }

    public func deleteExpiredSessions(createdBefore: Date, seenBefore: Date) async throws -> Int {
        let (created, seen) = (createdBefore.timeIntervalSince1970, seenBefore.timeIntervalSince1970)
        return try await database.withConnection { connection in
            try await Self.count(
                connection,
                "DELETE FROM account_session WHERE created_at < \(created) OR last_seen_at < \(seen) RETURNING 1")
        }
    }

    public func insertToken(_ token: TokenRecord) async throws {
        let info = token.info
        try await database.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO access_token (id, account_id, name, scope, secret_hash, created_at)
                VALUES (\(info.id), \(token.accountID.value), \(info.name), \(info.scope.rawValue),
                    \(token.secretHash), \(info.createdAt.timeIntervalSince1970))
                """, logger: .quiet)
            return ()
        }
    }

    public func tokens(of id: AccountID) async throws -> [AccessTokenInfo] {
        let text = id.value
        return try await database.withConnection { connection in
            var tokens: [AccessTokenInfo] = []
            for try await row in try await connection.query(
                """
                SELECT id, name, scope, created_at, last_used_at FROM access_token
                WHERE account_id = \(text) ORDER BY created_at DESC, id
                """, logger: .quiet
            ).decode((String, String, String, Double, Double?).self) {
                tokens.append(Self.token(row))
            }
            return tokens
        }
    }

    public func token(secretHash: String) async throws -> (token: AccessTokenInfo, account: Account)? {
        try await database.withConnection { connection in
            for try await (token, account) in try await connection.query(
                """
                SELECT t.id, t.name, t.scope, t.created_at, t.last_used_at, a.id, a.name, a.is_admin, a.created_at
                FROM access_token t JOIN account a ON a.id = t.account_id WHERE t.secret_hash = \(secretHash)
                """, logger: .quiet
            ).decode((String, String, String, Double, Double?, String, String, Bool, Double).self).map({
                (($0.0, $0.1, $0.2, $0.3, $0.4), ($0.5, $0.6, $0.7, $0.8))
            }) {
                let owner = Account(
                    id: AccountID(account.0), name: AccountName(trusted: account.1), isAdmin: account.2,
                    createdAt: Date(timeIntervalSince1970: account.3))
                return (Self.token(token), owner)
            }
            return nil
        }
    }

    public func touchToken(id: String, at moment: Date) async throws {
        let seconds = moment.timeIntervalSince1970
        try await database.withConnection { connection in
            try await connection.query(
                "UPDATE access_token SET last_used_at = \(seconds) WHERE id = \(id)", logger: .quiet)
            return ()
        }
    }

    public func deleteToken(id: String, of account: AccountID) async throws -> Bool {
        let owner = account.value
        return try await database.withConnection { connection in
            try await Self.count(
                connection, "DELETE FROM access_token WHERE id = \(id) AND account_id = \(owner) RETURNING 1") > 0
        }
    }

    static func token(_ row: (String, String, String, Double, Double?)) -> AccessTokenInfo {
        AccessTokenInfo(
            id: row.0, name: row.1, scope: TokenScope(rawValue: row.2) ?? .read,
            createdAt: Date(timeIntervalSince1970: row.3), lastUsedAt: row.4.map(Date.init(timeIntervalSince1970:)))
    }
}
