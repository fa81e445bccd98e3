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
                for try await value in try await connection.query(
                    """
                    INSERT INTO login_failure (key, count, last_failure_at) VALUES (\(key), 1, \(now))
                    ON CONFLICT (key) DO UPDATE SET
                        count = CASE WHEN \(now) - login_failure.last_failure_at < \(forget)
                            THEN login_failure.count + 1 ELSE 1 END,
                        last_failure_at = excluded.last_failure_at
                    RETURNING count
                    """, logger: .quiet
                ).decode(Int.self) {
                    count = value
                }
                if let lock = policy.lock(afterFailures: count) {
                    let locked = now + lock.seconds
                    try await connection.query(
                        "UPDATE login_failure SET locked_until = \(locked) WHERE key = \(key)", logger: .quiet)
                }
            }
            // Keys nobody failed under for a day and that are not locked: forgotten, so guessed names do not pile up.
            let forgotten = now - forget
            try await connection.query(
                """
                DELETE FROM login_failure
                WHERE last_failure_at < \(forgotten) AND coalesce(locked_until, 0) < \(now)
                """, logger: .quiet)
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
