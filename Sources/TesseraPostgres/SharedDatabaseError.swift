import Foundation

/// Why the PostgreSQL database could not be used. Every message names the server by `PostgresURL.redacted` at
/// most: a password never reaches a log line or the terminal.
public enum SharedDatabaseError: Error, Sendable, CustomStringConvertible {
    /// `TESSERA_DATABASE_URL` does not parse; the reason, without the URL itself.
    case malformedURL(String)
    /// Nothing answered at host and port within the connect timeout, or the connection was refused.
    case unreachable(server: String, reason: String)
    /// The server refused the user or its password.
    case authenticationFailed(server: String, user: String)
    case databaseMissing(server: String, database: String)
    /// `sslmode` asked for TLS the server does not offer, or its certificate is not trusted.
    case tls(server: String, reason: String)
    /// The database was migrated by a newer Tessera: this binary must not write to it.
    case schemaTooNew(found: Int, known: Int)
    /// Another instance held the migration lock for longer than we wait.
    case migrationLockTimeout(seconds: Int)
    case migrationFailed(version: Int, name: String, reason: String)
    /// The database is there but not serving: shutting down or starting up, refusing connections, out of
    /// them, the pool closed, or no answer within the query deadline. The same request may work shortly.
    case unavailable(String)
    /// A query or the pool failed after start; the reason as PostgreSQL gave it (no query parameters).
    case query(String)

    /// Whether this says the database is away (down, restarting, refusing connections, too slow to answer)
    /// rather than that a query was wrong: a request meeting it may be tried again once the database is back.
    public var isUnavailable: Bool {
        switch self {
        case .unreachable, .tls, .authenticationFailed, .databaseMissing, .unavailable:
            true
        case .malformedURL, .schemaTooNew, .migrationLockTimeout, .migrationFailed, .query:
            false
        }
    }

    public var description: String {
        switch self {
        case .malformedURL(let reason):
            "TESSERA_DATABASE_URL is not a PostgreSQL URL: \(reason)."
        case .unreachable(let server, let reason):
            "The PostgreSQL server at \(server) could not be reached (\(reason)); check the host and port, and that it is running."
        case .authenticationFailed(let server, let user):
            "The PostgreSQL server at \(server) refused user \"\(user)\": check the user and password in TESSERA_DATABASE_URL."
        case .databaseMissing(let server, let database):
            "The PostgreSQL server at \(server) has no database \"\(database)\"; create it (createdb \(database)) or fix TESSERA_DATABASE_URL."
        case .tls(let server, let reason):
            "The TLS connection to the PostgreSQL server at \(server) failed (\(reason)); check sslmode and sslrootcert in TESSERA_DATABASE_URL."
        case .schemaTooNew(let found, let known):
            "The PostgreSQL database is at schema version \(found) but this Tessera knows versions up to \(known); run the newer Tessera that migrated it."
        case .migrationLockTimeout(let seconds):
            "Another Tessera held the PostgreSQL migration lock for over \(seconds) seconds; check for a stuck instance (pg_locks, advisory lock)."
        case .migrationFailed(let version, let name, let reason):
            "PostgreSQL migration \(version) (\(name)) failed: \(reason)."
        case .unavailable(let reason):
            "The PostgreSQL database is not answering (\(reason)); check that it is running and accepts connections."
        case .query(let reason):
            "A PostgreSQL query failed: \(reason)."
        }
    }
}
