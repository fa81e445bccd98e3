import Foundation
import PostgresNIO

extension SharedDatabaseError {
    /// What postgres-nio threw, as a sentence an operator can act on. Reads only the error's code, the server's
    /// SQLSTATE and message, and the network error below: never the query's parameters, which may hold secrets.
    init(_ error: any Error, server url: PostgresURL) {
        let server = url.redacted
        switch error {
        case let error as SharedDatabaseError:
            self = error
        case let error as PostgresTransactionError:
            let inner = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError
            self = inner.map { SharedDatabaseError($0, server: url) } ?? .query("a transaction failed")
        case let error as PSQLError:
            self = Self(psql: error, url: url)
        case let error as NIOSSLError:
            self = .tls(server: server, reason: "\(error)")
        default:
            self = .query(String(describing: error))
        }
    }

    /// A database error as a `SharedDatabaseError`; any other error (what a transaction's body threw, unwrapped
    /// from postgres-nio's `PostgresTransactionError`) unchanged.
    static func mapped(_ error: any Error, server url: PostgresURL) -> any Error {
        switch error {
        case let error as PostgresTransactionError:
            if let inner = error.closureError { return mapped(inner, server: url) }
            return SharedDatabaseError(error, server: url)
        case is SharedDatabaseError, is PSQLError, is NIOSSLError:
            return SharedDatabaseError(error, server: url)
        default:
            return error
        }
    }

    private init(psql error: PSQLError, url: PostgresURL) {
        let server = url.redacted
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? "no message"
            switch state {
            // invalid_password, invalid_authorization_specification
            case "28P01", "28000": self = .authenticationFailed(server: server, user: url.user)
            // invalid_catalog_name
            case "3D000": self = .databaseMissing(server: server, database: url.database)
            // Classes 08 (connection), 53 (resources: too many connections), 57P (shutting down, starting up),
            // and 55000, a database not accepting connections: away for now, not a wrong query.
            case _ where ["08", "53", "57P"].contains(where: state.hasPrefix) || state == "55000":
                self = .unavailable("\(message) (SQLSTATE \(state))")
            default: self = .query("\(message) (SQLSTATE \(state))")
            }
        case .authMechanismRequiresPassword, .saslError, .unsupportedAuthMechanism:
            self = .authenticationFailed(server: server, user: url.user)
        case .sslUnsupported:
            self = .tls(server: server, reason: "the server does not offer TLS")
        case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            self = .tls(server: server, reason: error.underlying.map { "\($0)" } ?? error.code.description)
        case .connectionError:
            if let tls = error.underlying as? NIOSSLError {
                self = .tls(server: server, reason: "\(tls)")
            } else {
                self = .unreachable(server: server, reason: error.underlying.map(Self.network) ?? "connection failed")
            }
        case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            self = .unreachable(server: server, reason: "the connection closed")
        case .poolClosed:
            self = .unavailable("the connection pool is closed")
        default:
            self = .query(error.code.description)
        }
    }

    /// NIO's errors as their short text ("connect timeout", "Connection refused (errno: 111)").
    private static func network(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            return error.connectionErrors.first.map { "\($0.error)" } ?? "\(error)"
        }
        return "\(error)"
    }
}

extension PostgresURL {
    /// `sslmode` as postgres-nio's TLS settings: libpq's meanings, the certificate checked only by
    /// `verify-ca` (authority) and `verify-full` (authority and host name).
    func tlsConfiguration() -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case .disable, .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let sslRootCertificate { configuration.trustRoots = .file(sslRootCertificate) }
        return configuration
    }

    func clientTLS() throws(SharedDatabaseError) -> PostgresClient.Configuration.TLS {
        switch sslMode {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration())
        case .require, .verifyCA, .verifyFull: .require(tlsConfiguration())
        }
    }

    func connectionTLS() throws(SharedDatabaseError) -> PostgresConnection.Configuration.TLS {
        do {
            switch sslMode {
            case .disable: return .disable
            case .prefer: return .prefer(try NIOSSLContext(configuration: tlsConfiguration()))
            case .require, .verifyCA, .verifyFull: return .require(try NIOSSLContext(configuration: tlsConfiguration()))
            }
        } catch {
            throw .tls(server: redacted, reason: "\(error)")
        }
    }
}
