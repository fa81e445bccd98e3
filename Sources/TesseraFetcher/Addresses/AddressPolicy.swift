import NIOCore

/// Which addresses the fetcher refuses to connect to: everything that is not the public internet.
///
/// The list follows go-camo and the IANA special-purpose registries. IPv6 forms that carry an IPv4 address
/// (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are judged by that IPv4 address, so `::ffff:127.0.0.1` is
/// loopback like `127.0.0.1`.
public enum AddressPolicy {
    /// Why `address` is refused (for example "loopback"), or nil when it may be fetched from.
    public static func refusal(for address: IPAddress) -> String? {
        switch address {
        case .v4(let value):
            return refusal(v4: value)
        case .v6(let value):
            return refusal(v6: value)
        }
    }

    /// Why `address` is refused, or nil when it may be fetched from. Unix sockets are always refused.
    public static func refusal(for address: SocketAddress) -> String? {
        guard let text = address.ipAddress, let ip = IPAddress(text) else { return "not an IP address" }
        return refusal(for: ip)
    }

    // MARK: - IPv4

    struct Range4: Sendable {
        let network: UInt32
        let prefix: Int
        let reason: String

        func contains(_ value: UInt32) -> Bool {
            prefix == 0 || value >> (32 - prefix) == network >> (32 - prefix)
        }
    }

    static let refusedIPv4: [Range4] = [
        Range4(network: 0x0000_0000, prefix: 8, reason: "\"this network\""),  // 0.0.0.0/8
        Range4(network: 0x0A00_0000, prefix: 8, reason: "private network"),  // 10.0.0.0/8
        Range4(network: 0x6440_0000, prefix: 10, reason: "carrier-grade NAT"),  // 100.64.0.0/10
        Range4(network: 0x7F00_0000, prefix: 8, reason: "loopback"),  // 127.0.0.0/8
        Range4(network: 0xA9FE_0000, prefix: 16, reason: "link-local"),  // 169.254.0.0/16
        Range4(network: 0xAC10_0000, prefix: 12, reason: "private network"),  // 172.16.0.0/12
        Range4(network: 0xC000_0000, prefix: 24, reason: "IETF protocol assignments"),  // 192.0.0.0/24
        Range4(network: 0xC000_0200, prefix: 24, reason: "documentation"),  // 192.0.2.0/24
        Range4(network: 0xC0A8_0000, prefix: 16, reason: "private network"),  // 192.168.0.0/16
        Range4(network: 0xC612_0000, prefix: 15, reason: "benchmarking"),  // 198.18.0.0/15
        Range4(network: 0xC633_6400, prefix: 24, reason: "documentation"),  // 198.51.100.0/24
        Range4(network: 0xCB00_7100, prefix: 24, reason: "documentation"),  // 203.0.113.0/24
        Range4(network: 0xE000_0000, prefix: 4, reason: "multicast"),  // 224.0.0.0/4
        Range4(network: 0xFFFF_FFFF, prefix: 32, reason: "broadcast"),  // 255.255.255.255 (before 240/4)
        Range4(network: 0xF000_0000, prefix: 4, reason: "reserved"),  // 240.0.0.0/4
    ]

    static func refusal(v4 value: UInt32) -> String? {
        refusedIPv4.first { $0.contains(value) }?.reason
    }

    // MARK: - IPv6

    struct Range6: Sendable {
        let network: UInt128
        let prefix: Int
        let reason: String

        func contains(_ value: UInt128) -> Bool {
            prefix == 0 || value >> (128 - prefix) == network >> (128 - prefix)
        }
    }

    static let refusedIPv6: [Range6] = [
        Range6(network: 0, prefix: 128, reason: "unspecified"),  // ::/128
        Range6(network: 1, prefix: 128, reason: "loopback"),  // ::1/128
        Range6(network: 0x0100 << 112, prefix: 64, reason: "discard-only"),  // 100::/64
        Range6(network: 0x0064_FF9B_0001 << 80, prefix: 48, reason: "local-use NAT64"),  // 64:ff9b:1::/48
        Range6(network: 0x2001_0DB8 << 96, prefix: 32, reason: "documentation"),  // 2001:db8::/32
        Range6(network: 0x3FFF << 112, prefix: 20, reason: "documentation"),  // 3fff::/20
        Range6(network: 0xFC00 << 112, prefix: 7, reason: "unique local"),  // fc00::/7
        Range6(network: 0xFE80 << 112, prefix: 10, reason: "link-local"),  // fe80::/10
        Range6(network: 0xFEC0 << 112, prefix: 10, reason: "site-local"),  // fec0::/10, deprecated
        Range6(network: 0xFF00 << 112, prefix: 8, reason: "multicast"),  // ff00::/8
    ]

    /// IPv6 forms whose connection really goes to an IPv4 address, and where that address sits.
    struct Embedding: Sendable {
        let range: Range6
        let shift: Int
        let name: String
    }

    static let embeddings: [Embedding] = [
        // ::ffff:a.b.c.d
        Embedding(range: Range6(network: 0xFFFF << 32, prefix: 96, reason: ""), shift: 0, name: "IPv4-mapped"),
        // 64:ff9b::a.b.c.d
        Embedding(range: Range6(network: 0x0064_FF9B << 96, prefix: 96, reason: ""), shift: 0, name: "NAT64"),
        // 2002:aabb:ccdd::/48
        Embedding(range: Range6(network: 0x2002 << 112, prefix: 16, reason: ""), shift: 80, name: "6to4"),
        // ::a.b.c.d (checked after ::/128 and ::1 have been refused above)
        Embedding(range: Range6(network: 0, prefix: 96, reason: ""), shift: 0, name: "IPv4-compatible"),
    ]

    static func refusal(v6 value: UInt128) -> String? {
        if let reason = refusedIPv6.first(where: { $0.contains(value) })?.reason { return reason }
        for embedding in embeddings where embedding.range.contains(value) {
            let v4 = UInt32(truncatingIfNeeded: value >> embedding.shift)
            return refusal(v4: v4).map { "\($0), in \(embedding.name) form" }
        }
        return nil
    }
}
