import Foundation
import TesseraAccounts

/// Who may use this Tessera (`TESSERA_AUTH`, `serve --auth`; docs/accounts.md).
public enum AuthMode: String, Sendable, Hashable, CaseIterable {
    /// Anyone who reaches the server: one user, as on a laptop. Loopback only.
    case none
    /// One shared secret, `TESSERA_TOKEN`, as a bearer token or the cookie from `/login?token=`.
    case token
    /// Users with passwords (`tessera user add`), sessions and personal access tokens.
    case accounts

    public static func parse(_ text: String) throws(ConfigurationError) -> AuthMode {
        guard let mode = AuthMode(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw .invalid("TESSERA_AUTH must be none, token or accounts (got \"\(text)\").")
        }
        return mode
    }
}

extension AccountSettings {
    /// `TESSERA_BCRYPT_COST`, `TESSERA_SESSION_IDLE`, `TESSERA_SESSION_MAX`, `TESSERA_LOGIN_LOCKOUT`.
    init(environment: [String: String]) throws(ConfigurationError) {
        self.init()
        if let text = environment["TESSERA_BCRYPT_COST"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let cost = Int(text), (4...31).contains(cost) else {
                throw .invalid("TESSERA_BCRYPT_COST must be a whole number from 4 to 31 (got \"\(text)\").")
            }
            bcryptCost = cost
        }
        if let value = try Self.duration(environment, "TESSERA_SESSION_IDLE") { sessionIdle = value }
        if let value = try Self.duration(environment, "TESSERA_SESSION_MAX") { sessionLifetime = value }
        if let value = try Self.duration(environment, "TESSERA_LOGIN_LOCKOUT") {
            backoff = LoginBackoff(lockout: value)
        }
    }

    /// A number of seconds, or a number with `s`, `m`, `h` or `d` (`14d`), from 1 second to a year.
    static func duration(_ environment: [String: String], _ name: String) throws(ConfigurationError) -> Duration? {
        guard var text = environment[name]?.trimmingCharacters(in: .whitespaces).lowercased(), !text.isEmpty else {
            return nil
        }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var unit = 1.0
        if let last = text.last, let factor = units[last] {
            unit = factor
            text.removeLast()
        }
        guard let number = Double(text), number > 0, number * unit >= 1, number * unit <= 366 * 86_400 else {
            throw .invalid(
                "\(name) must be a time from 1 second to a year: seconds, or a number with s, m, h or d such as 14d (got \"\(environment[name] ?? "")\")."
            )
        }
        return .milliseconds(Int64((number * unit * 1000).rounded()))
    }
}
