import Foundation
import GRDB
import TesseraAccounts
import TesseraCore

/// Accounts in SQLite, the embedded engine of `AccountStoring` (tables from the `v4-accounts` migration).
/// Writes go through `AppDatabase.write` (one transaction each); reads straight to the writer.
public final class SQLiteAccountStore: AccountStoring {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func insert(_ record: AccountRecord) async throws {
        let account = record.account
        do {
            try await database.write { db in
                try db.execute(
                    sql: "INSERT INTO account (id, name, passwordHash, isAdmin, createdAt) VALUES (?, ?, ?, ?, ?)",
                    arguments: [
                        account.id.value, account.name.value, record.passwordHash, account.isAdmin,
                        account.createdAt.timeIntervalSince1970,
                    ])
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw AccountError.nameTaken(account.name)
        }
    }

    public func account(named name: AccountName) async throws -> AccountRecord? {
        try await database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM account WHERE name = ?", arguments: [name.value]).map {
                AccountRecord(account: Self.account($0), passwordHash: $0["passwordHash"])
            }
        }
    }

    public func account(id: AccountID) async throws -> Account? {
        try await database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM account WHERE id = ?", arguments: [id.value]).map(Self.account)
        }
    }

    public func accounts() async throws -> [Account] {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM account ORDER BY name").map(Self.account)
        }
    }

    public func setPassword(_ hash: String, of id: AccountID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "UPDATE account SET passwordHash = ? WHERE id = ?", arguments: [hash, id.value])
            let changed = db.changesCount > 0
            try db.execute(sql: "DELETE FROM accountSession WHERE accountId = ?", arguments: [id.value])
            return changed
        }
    }

    public func setAdmin(_ isAdmin: Bool, of id: AccountID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "UPDATE account SET isAdmin = ? WHERE id = ?", arguments: [isAdmin, id.value])
            return db.changesCount > 0
        }
    }

    public func remove(_ id: AccountID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [id.value])
            return db.changesCount > 0
        }
    }

    // MARK: - Sessions

    public func insertSession(_ session: SessionRecord) async throws {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO accountSession (hash, accountId, createdAt, lastSeenAt) VALUES (?, ?, ?, ?)",
                arguments: [
                    session.hash, session.accountID.value, session.createdAt.timeIntervalSince1970,
                    session.lastSeenAt.timeIntervalSince1970,
                ])
        }
    }

    public func session(hash: String) async throws -> (session: SessionRecord, account: Account)? {
        try await database.writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT s.hash, s.createdAt AS sessionCreatedAt, s.lastSeenAt, a.*
                    FROM accountSession s JOIN account a ON a.id = s.accountId WHERE s.hash = ?
                    """, arguments: [hash]
            ).map { row in
                let account = Self.account(row)
                let session = SessionRecord(
                    hash: row["hash"], accountID: account.id,
                    createdAt: Date(timeIntervalSince1970: row["sessionCreatedAt"]),
                    lastSeenAt: Date(timeIntervalSince1970: row["lastSeenAt"]))
                return (session, account)
            }
        }
    }

    public func touchSession(hash: String, at moment: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE accountSession SET lastSeenAt = max(lastSeenAt, ?) WHERE hash = ?",
                arguments: [moment.timeIntervalSince1970, hash])
        }
    }

    public func deleteSession(hash: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM accountSession WHERE hash = ?", arguments: [hash])
        }
    }

    public func deleteSessions(of id: AccountID) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM accountSession WHERE accountId = ?", arguments: [id.value])
            return db.changesCount
        }
    }

    public func deleteExpiredSessions(createdBefore: Date, seenBefore: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM accountSession WHERE createdAt < ? OR lastSeenAt < ?",
                arguments: [createdBefore.timeIntervalSince1970, seenBefore.timeIntervalSince1970])
            return db.changesCount
        }
    }

    // MARK: - Tokens

    public func insertToken(_ token: TokenRecord) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO accessToken (id, accountId, name, scope, secretHash, createdAt, lastUsedAt)
                    VALUES (?, ?, ?, ?, ?, ?, NULL)
                    """,
                arguments: [
                    token.info.id, token.accountID.value, token.info.name, token.info.scope.rawValue,
                    token.secretHash, token.info.createdAt.timeIntervalSince1970,
                ])
        }
    }

    public func tokens(of id: AccountID) async throws -> [AccessTokenInfo] {
        try await database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM accessToken WHERE accountId = ? ORDER BY createdAt DESC, id",
                arguments: [id.value]
            ).map(Self.token)
        }
    }

    public func token(secretHash: String) async throws -> (token: AccessTokenInfo, account: Account)? {
        try await database.writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT t.id AS tokenId, t.name AS tokenName, t.scope, t.createdAt AS tokenCreatedAt,
                        t.lastUsedAt, a.*
                    FROM accessToken t JOIN account a ON a.id = t.accountId WHERE t.secretHash = ?
                    """, arguments: [secretHash]
            ).map { row in
                let info = AccessTokenInfo(
                    id: row["tokenId"], name: row["tokenName"], scope: TokenScope(rawValue: row["scope"]) ?? .read,
                    createdAt: Date(timeIntervalSince1970: row["tokenCreatedAt"]),
                    lastUsedAt: (row["lastUsedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
                return (info, Self.account(row))
            }
        }
    }

    public func touchToken(id: String, at moment: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE accessToken SET lastUsedAt = ? WHERE id = ?",
                arguments: [moment.timeIntervalSince1970, id])
        }
    }

    public func deleteToken(id: String, of account: AccountID) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM accessToken WHERE id = ? AND accountId = ?", arguments: [id, account.value])
            return db.changesCount > 0
        }
    }

    // MARK: - Login back-off

    public func recordLoginFailure(keys: [String], at moment: Date, policy: LoginBackoff) async throws {
        let now = moment.timeIntervalSince1970
        try await database.write { db in
            for key in keys {
                let row = try Row.fetchOne(
                    db, sql: "SELECT count, lastFailureAt, lockedUntil FROM loginFailure WHERE key = ?",
                    arguments: [key])
                let previous: Int =
                    if let row, now - (row["lastFailureAt"] as Double) < policy.forgetAfter.seconds {
                        row["count"]
                    } else { 0 }
                let count = previous + 1
                let lockedUntil =
                    policy.lock(afterFailures: count).map { now + $0.seconds } ?? row?["lockedUntil"] as Double?
                try db.execute(
                    sql: """
                        INSERT INTO loginFailure (key, count, lastFailureAt, lockedUntil) VALUES (?, ?, ?, ?)
                        ON CONFLICT (key) DO UPDATE SET count = excluded.count,
                            lastFailureAt = excluded.lastFailureAt, lockedUntil = excluded.lockedUntil
                        """, arguments: [key, count, now, lockedUntil])
            }
            // Keys nobody failed under for a day and that are not locked: forgotten, so guessed names do not pile up.
            let forgotten = now - policy.forgetAfter.seconds
            try db.execute(
                sql: "DELETE FROM loginFailure WHERE lastFailureAt < ? AND coalesce(lockedUntil, 0) < ?",
                arguments: [forgotten, now])
        }
    }

    public func loginLockedUntil(keys: [String], at moment: Date) async throws -> Date? {
        guard !keys.isEmpty else { return nil }
        return try await database.writer.read { db in
            let marks = Array(repeating: "?", count: keys.count).joined(separator: ", ")
            let until = try Double.fetchOne(
                db,
                sql: "SELECT max(lockedUntil) FROM loginFailure WHERE key IN (\(marks)) AND lockedUntil > ?",
                arguments: StatementArguments(
                    keys.map { $0 as any DatabaseValueConvertible } + [moment.timeIntervalSince1970]))
            return until.map(Date.init(timeIntervalSince1970:))
        }
    }

    public func clearLoginFailures(key: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM loginFailure WHERE key = ?", arguments: [key])
        }
    }

    // MARK: - Rows

    static func account(_ row: Row) -> Account {
        Account(
            id: AccountID(row["id"]), name: AccountName(trusted: row["name"]), isAdmin: row["isAdmin"],
            createdAt: Date(timeIntervalSince1970: row["createdAt"]))
    }

    static func token(_ row: Row) -> AccessTokenInfo {
        AccessTokenInfo(
            id: row["id"], name: row["name"], scope: TokenScope(rawValue: row["scope"]) ?? .read,
            createdAt: Date(timeIntervalSince1970: row["createdAt"]),
            lastUsedAt: (row["lastUsedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}
