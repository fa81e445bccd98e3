import HTTPTypes

extension APIError {
    /// Over a fair-use budget: `429`, and `Retry-After` in whole seconds until one more is taken.
    public init(_ error: FairUseError) {
        switch error {
        case .rateLimited(let kind, let retryAfter):
            let what =
                switch kind {
                case .search: "searches"
                case .importing: "imports and uploads"
                case .export: "exports"
                }
            self.init(
                status: .tooManyRequests, code: "rate_limited",
                message: "Too many \(what) from your address; try again in \(retryAfter) seconds.")
            headers[.retryAfter] = String(retryAfter)
        case .tooManyStreams(let limit):
            // When one of its streams ends is up to the client; ten seconds is a polite guess.
            self.init(
                status: .tooManyRequests, code: "too_many_streams",
                message: "Your address already has \(limit) open event streams; close one first.")
            headers[.retryAfter] = "10"
        }
    }
}
