import Foundation
import Logging
import PostgresNIO
import TesseraAccounts

/// Accounts in the shared PostgreSQL database (migration 6), so every server knows the same users, sessions,
/// tokens and sign-in back-off: the PostgreSQL engine of `AccountStoring`, held to the same contract as
/// `SQLiteAccountStore`.
public struct PostgresAccountStore: AccountStoring {
    let database: PostgresAppDatabase

    public init(database: PostgresAppDatabase) {
        self.database = database
    }

    private typealias AccountRow = (String, String, Bool, Double)
    private static let accountColumns = "a.id, a.name, a.is_admin, a.created_at"

    private static func account(_ row: AccountRow) -> Account {
        Account(
            id: AccountID(row.0), name: AccountName(trusted: row.1), isAdmin: row.2,
            createdAt: Date(timeIntervalSince1970: row.3))
    }

    public func insert(_ record: AccountRecord) async throws {
        let account = record.account
        try await database.withConnection { connection in
            do {
                try await connection.query(
                    """
                    INSERT INTO account (id, name, password_hash, is_admin, created_at)
                    VALUES (\(account.id.value), \(account.name.value), \(record.passwordHash), \(account.isAdmin),
                        \(account.createdAt.timeIntervalSince1970))
                    """, logger: .quiet)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {  // unique_violation
                throw AccountError.nameTaken(account.name)
            }
            return ()
        }
    }

    public func account(named name: AccountName) async throws -> AccountRecord? {
        let text = name.value
        return try await database.withConnection { connection in
            for try await (id, name, admin, created, hash) in try await connection.query(
                "SELECT \(unescaped: Self.accountColumns), a.password_hash FROM account a WHERE a.name = \(text)",
                logger: .quiet
            ).decode((String, String, Bool, Double, String).self) {
                return AccountRecord(account: Self.account((id, name, admin, created)), passwordHash: hash)
            }
            return nil
        }
    }

    public func account(id: AccountID) async throws -> Account? {
        let text = id.value
        return try await database.withConnection { connection in
            for try await row in try await connection.query(
                "SELECT \(unescaped: Self.accountColumns) FROM account a WHERE a.id = \(text)", logger: .quiet
            ).decode(AccountRow.self) {
                return Self.account(row)
            }
            return nil
        }
    }

    public func accounts() async throws -> [Account] {
        try await database.withConnection { connection in
            var accounts: [Account] = []
            for try await row in try await connection.query(
                "SELECT \(unescaped: Self.accountColumns) FROM account a ORDER BY a.name", logger: .quiet
            ).decode(AccountRow.self) {
                accounts.append(Self.account(row))
            }
            return accounts
        }
    }

    public func setPassword(_ hash: String, of id: AccountID) async throws -> Bool {
        let text = id.value
        return try await database.withTransaction { connection in
            let changed = try await Self.count(
                connection, "UPDATE account SET password_hash = \(hash) WHERE id = \(text) RETURNING 1")
            try await connection.query("DELETE FROM account_session WHERE account_id = \(text)", logger: .quiet)
            return changed > 0
        }
    }

    public func setAdmin(_ isAdmin: Bool, of id: AccountID) async throws -> Bool {
        let text = id.value
        return try await database.withConnection { connection in
            try await Self.count(connection, "UPDATE account SET is_admin = \(isAdmin) WHERE id = \(text) RETURNING 1")
                > 0
        }
    }

    public func remove(_ id: AccountID) async throws -> Bool {
        let text = id.value
        return try await database.withConnection { connection in
            try await Self.count(connection, "DELETE FROM account WHERE id = \(text) RETURNING 1") > 0
        }
    }

    /// How many rows a statement with `RETURNING 1` touched.
    static func count(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> Int {
        var count = 0
        for try await _ in try await connection.query(query, logger: .quiet).decode(Int.self) { count += 1 }
        return count
    }
}
