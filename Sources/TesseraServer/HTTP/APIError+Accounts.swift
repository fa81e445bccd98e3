import HTTPTypes
import TesseraAccounts
import TesseraPostgres

extension APIError {
    public init(_ error: AccountError) {
        switch error {
        case .invalidName, .passwordTooShort, .passwordTooLong, .invalidTokenName, .invalidBody:
            self.init(status: .badRequest, code: "invalid_request", message: error.description)
        case .nameTaken, .lastAdmin:
            self.init(status: .conflict, code: "conflict", message: error.description)
        case .noSuchAccount, .noSuchToken:
            self.init(status: .notFound, code: "not_found", message: error.description)
        case .accountsOff:
            self.init(status: .notFound, code: "accounts_off", message: error.description)
        case .wrongCredentials:
            self.init(status: .unauthorized, code: "wrong_credentials", message: error.description)
        case .tooManyAttempts(let seconds):
            self.init(status: .tooManyRequests, code: "too_many_attempts", message: error.description)
            headers[.retryAfter] = String(seconds)
        case .sessionRequired:
            self.init(status: .forbidden, code: "session_required", message: error.description)
        case .storage(let underlying as SharedDatabaseError) where underlying.isUnavailable:
            self.init(
                status: .serviceUnavailable, code: "database_unavailable",
                message: "The database is not answering right now; nothing was changed. Try again in a moment.",
                underlying: underlying)
            headers[.retryAfter] = "5"
        case .storage(let underlying):
            self.init(
                status: .internalServerError, code: "storage_failed",
                message: "The account store failed; the server log says why.", underlying: underlying)
        }
    }
}
