import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus
import TesseraFetcher

/// `GET /metrics`: every figure of this app's own registry in Prometheus' text format (version 0.0.4).
///
/// Who may read it: anyone on this machine, and otherwise the same as the API (with `TESSERA_TOKEN` set,
/// only with the token; see `MetricsAccess`). Fair use does not count it, and it is never on the image
/// fast path's way (that only looks at `/img/`).
struct MetricsController<Context: RequestContext> {
    static var path: String { "/metrics" }
    static var contentType: String { "text/plain; version=0.0.4; charset=utf-8" }

    let registry: PrometheusCollectorRegistry

    func addRoutes(to router: Router<Context>) {
        router.get(RouterPath(Self.path)) { _, _ in
            var buffer: [UInt8] = []
            registry.emit(into: &buffer)
            return Response(
                status: .ok, headers: [.contentType: Self.contentType, .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: buffer)))
        }
    }
}

/// Whether a `/metrics` request comes from this machine, so it needs no token: its peer is a loopback
/// address and it carries none of the headers a reverse proxy adds. A proxy on the same machine connects
/// from loopback too, and what it forwards comes from anywhere, so such a request needs the token like any
/// API request (when one is set).
enum MetricsAccess {
    private static let loopback = [IPNetwork("127.0.0.0/8"), IPNetwork("::1")].compactMap { $0 }
    private static let forwardingHeaders: [HTTPField.Name] = [
        HTTPField.Name("X-Forwarded-For")!, HTTPField.Name("Forwarded")!, HTTPField.Name("X-Real-IP")!,
    ]

    static func isLocal(peer: SocketAddress?, headers: HTTPFields) -> Bool {
        guard let text = peer?.ipAddress, let address = IPAddress(text)?.unmapped,
            loopback.contains(where: { $0.contains(address) })
        else { return false }
        return !forwardingHeaders.contains { headers[$0] != nil }
    }
}
