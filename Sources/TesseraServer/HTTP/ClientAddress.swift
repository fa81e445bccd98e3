import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TesseraAccounts
import TesseraFetcher

/// The request context of the app: Hummingbird's basic one plus the peer's address, which fair use keys on,
/// and the connection, which an event stream closes when its client stops reading.
public struct TesseraRequestContext: RequestContext, RemoteAddressRequestContext, ConnectionRequestContext,
    PrincipalRequestContext
{
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    let connection: ConnectionHandle
    /// Who sent the request, in `TESSERA_AUTH=accounts` (set by `AccountMiddleware`); nil in the other modes.
    public var principal: Principal?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        connection = ConnectionHandle(channel: source.channel)
    }
}

extension IPAddress {
    /// Its IPv4 form when it is an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), so one client has one key
    /// whichever way the listener saw it.
    var unmapped: IPAddress {
        if case .v6(let value) = self, value >> 32 == 0xffff { return .v4(UInt32(truncatingIfNeeded: value)) }
        return self
    }

    /// The part that names one client: the whole IPv4 address, or the /64 network of an IPv6 one (a
    /// single customer usually holds a whole /64 and can pick any address in it).
    var clientKey: [UInt8] {
        switch unmapped {
        case .v4(let value): withUnsafeBytes(of: value.bigEndian) { Array($0) }
        case .v6(let value): withUnsafeBytes(of: UInt64(truncatingIfNeeded: value >> 64).bigEndian) { Array($0) }
        }
    }
}

/// An address or a network in CIDR notation (`10.0.0.0/8`, `::1`), as `TESSERA_TRUSTED_PROXIES` lists them.
public struct IPNetwork: Hashable, Sendable {
    public let address: IPAddress
    public let prefixLength: Int

    public init?(_ text: some StringProtocol) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = IPAddress(String(parts[0]))?.unmapped else { return nil }
        let bits = if case .v4 = address { 32 } else { 128 }
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...bits).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = bits
        }
        self.address = address
    }

    public func contains(_ other: IPAddress) -> Bool {
        switch (address, other.unmapped) {
        case (.v4(let mine), .v4(let theirs)):
            prefixLength == 0 || mine >> (32 - prefixLength) == theirs >> (32 - prefixLength)
        case (.v6(let mine), .v6(let theirs)):
            prefixLength == 0 || mine >> (128 - prefixLength) == theirs >> (128 - prefixLength)
        default:
            false
        }
    }
}

/// Whom a request counts against: the peer, or, when the peer is a trusted proxy, the right-most address
/// of `X-Forwarded-For` that is not itself a trusted proxy (the left-most entries are whatever the client
/// chose to send, so they are never believed). Anything else keeps the peer.
enum ClientAddress {
    static func key(peer: SocketAddress?, forwardedFor: [String], trusted: [IPNetwork]) -> [UInt8] {
        guard let peerText = peer?.ipAddress, let peerAddress = IPAddress(peerText)?.unmapped else {
            // A Unix socket: one local client.
            return []
        }
        func isTrusted(_ address: IPAddress) -> Bool { trusted.contains { $0.contains(address) } }
        guard isTrusted(peerAddress), !forwardedFor.isEmpty else { return peerAddress.clientKey }
        var client = peerAddress
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard let address = IPAddress(hop)?.unmapped else { break }
            client = address
            if !isTrusted(address) { break }
        }
        return client.clientKey
    }

    static var forwardedFor: HTTPField.Name { HTTPField.Name("X-Forwarded-For")! }

    /// `key` of whoever sent `request` over a connection from `peer`.
    static func key(of request: Request, peer: SocketAddress?, trusted: [IPNetwork]) -> [UInt8] {
        key(peer: peer, forwardedFor: request.headers[values: forwardedFor], trusted: trusted)
    }

    /// The same as hex text: how the back-off of sign-ins and link passwords names a client.
    static func text(of request: Request, peer: SocketAddress?, trusted: [IPNetwork]) -> String {
        key(of: request, peer: peer, trusted: trusted).map { String(format: "%02x", $0) }.joined()
    }
}
