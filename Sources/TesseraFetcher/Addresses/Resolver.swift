import TesseraCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a host into the addresses to check and connect to. The fetcher resolves each host once per hop
/// and connects to what it checked, so a DNS server cannot answer differently for the connection.
protocol HostResolver: Sendable {
    /// Every address of `host`, in the order to try them; never empty.
    func addresses(of host: String) async throws(FetchError) -> [IPAddress]
}

/// The system resolver (`getaddrinfo`), run on threads of its own so it never holds a thread of Swift's
/// cooperative pool. `getaddrinfo` reads numeric hosts the way `inet_aton` does, so odd spellings
/// (`2130706433`, `0177.0.0.1`, `127.1`, `0x7f.0.0.1`) come back as the address they really mean.
struct SystemResolver: HostResolver {
    /// At most this many lookups at once.
    var pool = BlockingPool(size: 4, name: "resolver")

    func addresses(of host: String) async throws(FetchError) -> [IPAddress] {
        // Dropped, not waited for, when the fetch is cancelled: a hung lookup never outlives its deadline.
        let result = await pool.run(abandonOnCancel: true) { Self.lookUp(host) }
        switch result {
        case .some(let addresses) where !addresses.isEmpty:
            return addresses
        case .some:
            throw .unresolvable(host: host)
        case .none:
            throw .connectionFailed(host: host, detail: "cancelled while resolving")
        }
    }

    /// Blocking: `getaddrinfo`, stream sockets only, duplicates dropped, the system's order kept.
    static func lookUp(_ host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            next = info.pointee.ai_next
            guard let socketAddress = info.pointee.ai_addr else { continue }
            let address: IPAddress
            switch info.pointee.ai_family {
            case AF_INET:
                address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    IPAddress(ipv4NetworkOrder: $0.pointee.sin_addr)
                }
            case AF_INET6:
                address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    IPAddress(ipv6: $0.pointee.sin6_addr)
                }
            default:
                continue
            }
            if !addresses.contains(address) { addresses.append(address) }
        }
        return addresses
    }
}
