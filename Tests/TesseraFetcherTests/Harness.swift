import Foundation
import Synchronization
import TesseraCore
import TesseraTestSupport
import Testing

@testable import TesseraFetcher

/// Bytes to serve: real magic numbers, filler after them.
enum Sample {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + filler(4096) + [0xFF, 0xD9]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + filler(2048)
    static let html: [UInt8] =
        Array("<!doctype html><html><head><title>Sign in</title></head><body>".utf8) + filler(4096)

    /// The tests' own sniffer: JPEG or PNG magic numbers.
    static let isJPEGOrPNG: @Sendable ([UInt8]) -> Bool = { prefix in
        prefix.starts(with: [0xFF, 0xD8, 0xFF])
            || prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    static func filler(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }
}

/// A resolver that answers from a table, standing in for a DNS server; unknown names fail the test.
struct TableResolver: HostResolver {
    let table: [String: [String]]

    func addresses(of host: String) async throws(FetchError) -> [IPAddress] {
        guard let answers = table[host] else {
            Issue.record("unexpected lookup of \(host)")
            throw .unresolvable(host: host)
        }
        return answers.compactMap(IPAddress.init)
    }
}

/// Starts an origin, runs `body` with a fetcher under `policy`, and shuts both down, whatever happens.
func withFetcher<T>(
    _ policy: FetchPolicy = FetchPolicy(), resolver: (any HostResolver)? = nil,
    _ body: (ImageFetcher, ImageOrigin) async throws -> T
) async throws -> T {
    let origin = try await ImageOrigin.start()
    let fetcher =
        if let resolver {
            ImageFetcher(policy: policy, logger: .init(label: "test"), resolver: resolver)
        } else {
            ImageFetcher(policy: policy)
        }
    do {
        let result = try await body(fetcher, origin)
        try await fetcher.shutdown()
        await origin.stop()
        return result
    } catch {
        try? await fetcher.shutdown()
        await origin.stop()
        throw error
    }
}

/// A policy trusting the origin of `url`, changed by `change`.
func policy(trusting url: String? = nil, _ change: (inout FetchPolicy) -> Void = { _ in }) -> FetchPolicy {
    var policy = FetchPolicy(trustedOrigins: Set([url].compactMap { $0 }))
    // Generous bounds unless a test is about them: in a full run hundreds of tests start at once on two cores,
    // and a redirect chain to a loopback origin has taken over the default 20 s there.
    policy.totalTimeout = .seconds(120)
    policy.connectTimeout = .seconds(30)
    change(&policy)
    return policy
}

/// Runs `operation` and returns the `FetchError` it threw, failing the test if it returned a body instead.
func fetchError(_ operation: () async throws -> FetchedBody) async -> FetchError? {
    do {
        let body = try await operation()
        Issue.record("expected a FetchError, got \(body.data.count) bytes from \(body.finalURL)")
        return nil
    } catch let error as FetchError {
        return error
    } catch {
        Issue.record("expected a FetchError, got \(error)")
        return nil
    }
}

extension FetchError {
    /// The address of a `.refusedAddress`, nil for any other error.
    var refusedAddress: String? {
        if case .refusedAddress(_, let address, _) = self { return address }
        return nil
    }
}

/// Records what a validator was called with.
final class Calls: Sendable {
    private let seen = Mutex<[[UInt8]]>([])
    var all: [[UInt8]] { seen.withLock { $0 } }

    func recording(_ answer: @escaping @Sendable ([UInt8]) -> Bool) -> @Sendable ([UInt8]) -> Bool {
        { [self] bytes in
            seen.withLock { $0.append(bytes) }
            return answer(bytes)
        }
    }
}
