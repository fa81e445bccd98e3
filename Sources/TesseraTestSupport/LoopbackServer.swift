import Hummingbird
import Logging

/// Runs `router` on 127.0.0.1 at a free port and returns once it accepts connections: how every
/// stand-in in this module starts. Stop the returned service to stop the server.
func startLoopbackServer(
    _ router: Router<BasicRequestContext>, name: String
) async throws -> (port: Int, service: BackgroundService) {
    let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: name)
    logger.logLevel = .critical
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: name),
        onServerRunning: { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        },
        logger: logger)
    let service = BackgroundService(app, logger: logger)
    var port = 0
    for await value in portStream { port = value }
    guard port > 0 else {
        try? await service.stop()
        throw StandInError.didNotStart
    }
    return (port, service)
}
