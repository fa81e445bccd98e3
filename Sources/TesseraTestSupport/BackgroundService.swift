import Logging
import ServiceLifecycle

/// A service, such as a Hummingbird application, running in a task of its own until `stop()`.
///
/// `stop()` shuts it down gracefully: the server stops accepting connections, lets the requests in flight
/// finish and closes. Cancelling the task instead closes the listening channel under Hummingbird, which
/// then logs "Waiting on child channel: CancellationError()" and "Server shutdown error: Already closed"
/// as errors. A shutdown that takes longer than `gracePeriod` is escalated to cancellation.
public final class BackgroundService: Sendable {
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts `service` at once; no signal handlers are installed.
    public init(_ service: some Service, logger: Logger, gracePeriod: Duration = .seconds(10)) {
        var configuration = ServiceGroupConfiguration(services: [service], logger: logger)
        configuration.maximumGracefulShutdownDuration = gracePeriod
        let group = ServiceGroup(configuration: configuration)
        self.group = group
        task = Task { try await group.run() }
    }

    /// Shuts the service down gracefully and returns once it has stopped, rethrowing what it failed with.
    public func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }
}
