import Foundation
import Logging
import PostgresNIO
import TesseraAccounts

// MARK: - Login back-off

extension PostgresAccountStore {
    /// One transaction; each key's row is locked by its upsert, so failures on several servers at once all count.
    public func recordLoginFailure(keys: [String], at moment: Date, policy: LoginBackoff) async throws {
        let now = moment.timeIntervalSince1970
        let forget = policy.forgetAfter.seconds
        try await database.withTransaction { connection in
            for key in keys {
                var count = 0
                var locked: Double?
                for try await (value, until) in try await connection.query(
                    """
                    INSERT INTO login_failure (key, count, last_failure_at) VALUES (\(key), 1, \(now))
                    ON CONFLICT (key) DO UPDATE SET
                        count = CASE WHEN \(now) - login_failure.last_failure_at < \(forget)
                            THEN login_failure.count + 1 ELSE 1 END,
                        last_failure_at = excluded.last_failure_at
                    RETURNING count, locked_until
                    """, logger: .quiet
                ).decode((Int, Double?).self) {
                    (count, locked) = (value, until)
                }
                if let lock = policy.lock(afterFailures: count) {
                    locked = now + lock.seconds
                    try await connection.query(
                        "UPDATE login_failure SET locked_until = \(locked) WHERE key = \(key)", logger: .quiet)
                }
            }
            return ()
        }
    }

    public func loginLockedUntil(keys: [String], at moment: Date) async throws -> Date? {
        let now = moment.timeIntervalSince1970
        return try await database.withConnection { connection in
            for try await until in try await connection.query(
                "SELECT max(locked_until) FROM login_failure WHERE key = ANY(\(keys)) AND locked_until > \(now)",
                logger: .quiet
            ).decode(Double?.self) {
                return until.map(Date.init(timeIntervalSince1970:))
            }
            return nil
        }
    }

    public func clearLoginFailures(key: String) async throws {
        try await database.withConnection { connection in
            try await connection.query("DELETE FROM login_failure WHERE key = \(key)", logger: .quiet)
            return ()
        }
    }
}
