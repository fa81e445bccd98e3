#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One IPv4 or IPv6 address as a number, so ranges are checked with plain integer arithmetic.
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    case v4(UInt32)
    case v6(UInt128)

    /// Parses the strict textual forms only (`inet_pton`): `127.0.0.1`, `::1`, `[::1]`.
    ///
    /// Loose IPv4 spellings such as `127.1` or `0x7f.0.0.1` are not accepted here; host names in URLs go
    /// through the resolver instead, which reads them the way the system would when connecting.
    public init?(_ text: String) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            self.init(ipv4NetworkOrder: v4)
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, String(text), &v6) == 1 {
            self.init(ipv6: v6)
            return
        }
        return nil
    }

    init(ipv4NetworkOrder address: in_addr) {
        self = .v4(UInt32(bigEndian: address.s_addr))
    }

    init(ipv6 address: in6_addr) {
        var value: UInt128 = 0
        withUnsafeBytes(of: address) { bytes in
            for byte in bytes { value = value << 8 | UInt128(byte) }
        }
        self = .v6(value)
    }

    /// The conventional text form: dotted quad, or RFC 5952 IPv6 (without brackets).
    public var description: String {
        switch self {
        case .v4(let value):
            return [24, 16, 8, 0].map { String(value >> $0 & 0xFF) }.joined(separator: ".")
        case .v6(let value):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { bytes in
                for index in 0..<16 { bytes[index] = UInt8(truncatingIfNeeded: value >> (8 * (15 - index))) }
            }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
