import Foundation

/// The accounts' settings (`TESSERA_BCRYPT_COST`, `TESSERA_SESSION_IDLE`, `TESSERA_SESSION_MAX`,
/// `TESSERA_LOGIN_LOCKOUT`); the defaults and why are in docs/accounts.md.
public struct AccountSettings: Sendable, Hashable {
    /// bcrypt's cost: 2^cost rounds; why 11: the measurements in docs/accounts.md.
    public var bcryptCost = 11
    /// A session nobody used for this long has ended.
    public var sessionIdle: Duration = .seconds(14 * 86_400)
    /// A session ends this long after sign-in, used or not.
    public var sessionLifetime: Duration = .seconds(60 * 86_400)
    public var backoff = LoginBackoff()

    public init() {}

    /// The shortest password `tessera user add` and `passwd` take.
    public static let minimumPasswordLength = 8
    /// bcrypt reads only the first 72 bytes: longer passwords are refused rather than silently cut.
    public static let maximumPasswordBytes = 72
}
