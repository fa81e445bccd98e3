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
        }
    }
}
