import Foundation
import Hummingbird
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The request context of the app: Hummingbird's basic one plus the peer's address, which fair use keys on.
public struct TesseraRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// An IPv4 or IPv6 address as bytes (4 or 16); an IPv4-mapped IPv6 address is its IPv4 form, so one
/// client has one key whichever way the listener saw it.
public struct IPAddress: Hashable, Sendable {
    public let bytes: [UInt8]

    public init?(_ text: some StringProtocol) {
        let text = String(text)
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let all = withUnsafeBytes(of: &v6) { Array($0) }
        bytes = all.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] ? Array(all.suffix(4)) : all
    }

    /// The part that names one client: the whole IPv4 address, or the /64 network of an IPv6 one (a
    /// single customer usually holds a whole /64 and can pick any address in it).
    var clientKey: [UInt8] { bytes.count == 16 ? Array(bytes.prefix(8)) : bytes }
}

/// An address or a network in CIDR notation (`10.0.0.0/8`, `::1`), as `TESSERA_TRUSTED_PROXIES` lists them.
public struct IPNetwork: Hashable, Sendable {
    public let address: IPAddress
    public let prefixLength: Int

    public init?(_ text: some StringProtocol) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = IPAddress(parts[0]) else { return nil }
        let bits = address.bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...bits).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = bits
        }
        self.address = address
    }

    public func contains(_ other: IPAddress) -> Bool {
        guard other.bytes.count == address.bytes.count else { return false }
        var left = prefixLength
        for (mine, theirs) in zip(address.bytes, other.bytes) where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xff : ~(0xff >> UInt8(left))
            if mine & mask != theirs & mask { return false }
            left -= 8
        }
        return true
    }
}

/// Whom a request counts against: the peer, or, when the peer is a trusted proxy, the right-most address
/// of `X-Forwarded-For` that is not itself a trusted proxy (the left-most entries are whatever the client
/// chose to send, so they are never believed). Anything else keeps the peer.
enum ClientAddress {
    static func key(peer: SocketAddress?, forwardedFor: [String], trusted: [IPNetwork]) -> [UInt8] {
        guard let peerText = peer?.ipAddress, let peerAddress = IPAddress(peerText) else {
            // A Unix socket: one local client.
            return []
        }
        func isTrusted(_ address: IPAddress) -> Bool { trusted.contains { $0.contains(address) } }
        guard isTrusted(peerAddress), !forwardedFor.isEmpty else { return peerAddress.clientKey }
        var client = peerAddress
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard let address = IPAddress(hop) else { break }
            client = address
            if !isTrusted(address) { break }
        }
        return client.clientKey
    }
}
