/// Tries `attempt` every `interval` until it returns a value, throwing `WebDriverError.timeout` naming `what` after
/// `timeout`. Errors from `attempt` end the wait at once: a broken page should fail fast, not time out.
public func poll<T>(
    _ what: String, timeout: Duration, every interval: Duration = .milliseconds(50),
    _ attempt: () async throws -> T?
) async throws -> T {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
        if let value = try await attempt() { return value }
        guard clock.now < deadline else { throw WebDriverError.timeout(what: what, after: timeout) }
        try await Task.sleep(for: interval)
    }
}
