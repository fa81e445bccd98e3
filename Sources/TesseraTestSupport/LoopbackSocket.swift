#if canImport(Glibc)
    import Glibc
#endif

/// A TCP socket bound to a free loopback port, for what needs a port before a server owns it (nginx,
/// chromedriver) or a port that behaves badly on purpose (one that never accepts).
public struct LoopbackSocket: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public let descriptor: Int32
    public let port: Int

    /// Binds a new socket to 127.0.0.1 on `port`, or on a port the kernel picks (0).
    public init(port: Int = 0) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(clamping: port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(descriptor)
            throw Failure(description: "bind to 127.0.0.1: errno \(errno)")
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// A loopback port nobody listens on now (a moment later someone else may take it: use it at once).
    public static func freePort() throws -> Int {
        let socket = try LoopbackSocket()
        socket.close()
        return socket.port
    }

    /// Connects `descriptor` to `port` on 127.0.0.1 and returns what `connect` does: 0, or -1 with `errno` set
    /// (on a non-blocking socket, `EINPROGRESS` while the connection is under way). Options that must apply
    /// from the start (a small receive buffer, a source address) go on the socket before.
    public static func connect(_ descriptor: Int32, toPort port: Int) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    public func close() {
        _ = Glibc.close(descriptor)
    }
}
