import Foundation

/// `TESSERA_DATABASE_URL`: `postgres://user:password@host:port/database?sslmode=…`, libpq's URL form.
///
/// Parsed once at start; every message about it shows `redacted`, never the password.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// libpq's `sslmode` values that postgres-nio can honour. `allow` (try without TLS first) it cannot, so it is
    /// refused rather than quietly treated as something else.
    public enum SSLMode: String, Sendable, Hashable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server offers it, certificate not checked (libpq's default).
        case prefer
        /// TLS or no connection; the certificate is not checked (libpq's meaning of `require`).
        case require
        /// TLS with a certificate signed by a trusted authority, any host name.
        case verifyCA = "verify-ca"
        /// TLS with a trusted certificate for this host name: what a connection over a network should use.
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var sslMode: SSLMode
    /// `sslrootcert`: a PEM file of the authorities to trust instead of the system's.
    public var sslRootCertificate: String?
    /// `connect_timeout`: seconds to wait for the server to accept a connection.
    public var connectTimeout: Duration

    static let example = "postgres://user:password@host:5432/database"
    static let parameters = ["sslmode", "sslrootcert", "connect_timeout"]

    public init(parsing text: String) throws(SharedDatabaseError) {
        func malformed(_ reason: String) -> SharedDatabaseError {
            .malformedURL("\(reason); it should look like \(Self.example)")
        }
        // URLComponents takes a password with a bare "@" or "/" as part of the host; percent-encoding is required.
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)) else {
            throw malformed("it is not a URL (a password with @, / or : in it must be percent-encoded)")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw malformed("its scheme must be postgres:// or postgresql://")
        }
        guard let host = components.host, !host.isEmpty else { throw malformed("it names no host") }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw malformed("its port must be from 1 to 65535") }
        guard let user = components.user?.removingPercentEncoding, !user.isEmpty else {
            throw malformed("it names no user")
        }
        self.user = user
        password = components.password?.removingPercentEncoding
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw malformed("its path must be only the database's name") }
        // libpq's default: the database named like the user.
        database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        sslMode = .prefer
        connectTimeout = .seconds(10)
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else {
                    throw malformed(
                        "sslmode must be one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", ")) (got \"\(value)\")"
                    )
                }
                sslMode = mode
            case "sslrootcert":
                sslRootCertificate = value.isEmpty ? nil : value
            case "connect_timeout":
                guard let seconds = Int(value), (1...300).contains(seconds) else {
                    throw malformed(
                        "connect_timeout must be a whole number of seconds from 1 to 300 (got \"\(value)\")")
                }
                connectTimeout = .seconds(seconds)
            default:
                throw malformed(
                    "it has a parameter Tessera does not know, \"\(item.name)\" (known: \(Self.parameters.joined(separator: ", ")))"
                )
            }
        }
    }

    /// The URL with the password left out: what logs and messages show.
    public var redacted: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)\(password == nil ? "" : ":***")@\(shownHost):\(port)/\(database)"
            + "?sslmode=\(sslMode.rawValue)"
    }

    public var description: String { redacted }

    /// The same server and credentials, another database: how tests make a database of their own.
    public func with(database: String) -> PostgresURL {
        var copy = self
        copy.database = database
        return copy
    }
}

extension PostgresURL {
    /// The URL as text again, password included (percent-encoded): for handing to another process, such as
    /// a server a test starts. Never for a log or a message; those take `redacted`.
    public var urlText: String {
        func encoded(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
                ?? text
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let credentials = encoded(user) + (password.map { ":" + encoded($0) } ?? "")
        var text = "postgres://\(credentials)@\(shownHost):\(port)/\(encoded(database))?sslmode=\(sslMode.rawValue)"
        text += "&connect_timeout=\(connectTimeout.components.seconds)"
        if let sslRootCertificate { text += "&sslrootcert=\(encoded(sslRootCertificate))" }
        return text
    }
}
