import HTTPTypes

extension APIError {
    /// Not ready: `503`, with a code naming the part that is down. The message stays general (the health
    /// check needs no token); the log has the path and the reason.
    public init(_ error: ReadinessError) {
        switch error {
        case .dataFolder:
            self.init(
                status: .serviceUnavailable, code: "data_folder_unavailable",
                message: "The data folder is missing or not writable; the server's log says why.",
                underlying: error)
        case .database:
            self.init(
                status: .serviceUnavailable, code: "database_unavailable",
                message: "The database cannot be read or written; the server's log says why.", underlying: error)
        }
    }
}
