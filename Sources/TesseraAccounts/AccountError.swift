import Foundation

/// Everything that can go wrong with accounts, sessions and tokens, each with a sentence a person can act on.
/// Mapped to HTTP in `APIError+Accounts.swift` and to exit codes by the `tessera user` commands.
public enum AccountError: Error, Sendable, CustomStringConvertible {
    case invalidName(String)
    case nameTaken(AccountName)
    case noSuchAccount(AccountName)
    case passwordTooShort(minimum: Int)
    case passwordTooLong(maximumBytes: Int)
    /// The one answer to a wrong name or a wrong password, so it reveals neither.
    case wrongCredentials
    /// Too many failed sign-ins for this name or this address.
    case tooManyAttempts(retryAfter: Int)
    case invalidTokenName
    case noSuchToken(String)
    /// The last admin cannot be removed, nor lose the role: someone must be able to manage accounts.
    case lastAdmin(AccountName)
    /// A request body that is not what the call takes.
    case invalidBody(String)
    /// The server does not run in `TESSERA_AUTH=accounts`.
    case accountsOff
    /// Personal access tokens are made and revoked only when signed in with a password.
    case sessionRequired
    /// The database failed: nothing was changed, or nothing could be read.
    case storage(underlying: any Error)

    public var description: String {
        switch self {
        case .invalidName(let text):
            "\"\(text)\" is not a valid user name: use 1–64 letters a–z, digits, \".\", \"_\" or \"-\", starting with a letter or digit."
        case .nameTaken(let name): "There is already a user named \(name)."
        case .noSuchAccount(let name): "There is no user named \(name); tessera user list shows them."
        case .passwordTooShort(let minimum): "The password is too short: use at least \(minimum) characters."
        case .passwordTooLong(let maximum):
            "The password is too long: bcrypt reads at most \(maximum) bytes (UTF-8), so use a shorter one."
        case .wrongCredentials: "The name or the password is wrong."
        case .tooManyAttempts(let seconds):
            "Too many failed sign-ins for this name or from this address; try again in \(seconds) seconds."
        case .invalidTokenName: "A token's name must be 1–100 characters."
        case .noSuchToken(let id): "There is no token \(id)."
        case .lastAdmin(let name): "\(name) is the last admin; make another user an admin first."
        case .invalidBody(let why): why
        case .accountsOff: "This Tessera runs without accounts; TESSERA_AUTH=accounts turns them on."
        case .sessionRequired:
            "Tokens are made and revoked when signed in with a password (the web app or POST /api/session), not with a token."
        case .storage(let underlying): "The account store failed: \(underlying)"
        }
    }
}
