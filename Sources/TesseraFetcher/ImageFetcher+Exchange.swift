import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import TesseraCore

// MARK: - One request and its body

extension ImageFetcher {
    enum Exchange: Sendable {
        case done(HopOutcome)
        /// No answer arrived from this address; the next checked address may be tried.
        case notConnected(FetchError)
    }

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Sends one GET and reads its answer: a redirect target, or the body within the policy's limits.
    func exchange(_ target: TargetURL, client: HTTPClient, context: FetchContext) async throws(FetchError)
        -> Exchange
    {
        let host = target.hostForURL
        // Only these headers: no cookies, no credentials from the URL, no API keys.
        var request = HTTPClientRequest(url: target.string)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: Self.userAgent)
        request.headers.add(name: "Accept", value: context.accept)
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: context.deadline, logger: logger)
        } catch {
            let failure = Self.fetchError(error, host: host)
            guard !Task.isCancelled, Self.isConnectFailure(error) else { throw failure }
            return .notConnected(failure)
        }
        let status = Int(response.status.code)
        logger.debug("image host answered", metadata: ["host": "\(host)", "status": "\(status)"])
        if Self.redirectStatuses.contains(status) {
            guard let location = response.headers.first(name: "location"), !location.isEmpty else {
                throw .upstreamStatus(host: host, status: status)
            }
            return .done(.redirect(try target.resolving(location: location)))
        }
        guard (200..<300).contains(status) else { throw .upstreamStatus(host: host, status: status) }
        return .done(.body(try await readBody(response, from: target, context: context)))
    }

    /// Streams the body in, stopping as soon as it passes the cap or its first bytes fail the check.
    /// Leaving the loop early drops the response, which closes the connection.
    private func readBody(_ response: HTTPClientResponse, from target: TargetURL, context: FetchContext)
        async throws(FetchError) -> FetchedBody
    {
        let host = target.hostForURL
        let limit = context.maxBytes
        let contentType = response.headers.first(name: "content-type")
        var expected: Int?
        if let length = response.headers.first(name: "content-length").flatMap({ Int($0) }) {
            guard length <= limit else { throw .tooLarge(limit: limit) }
            expected = length
        }
        var data = Data()
        data.reserveCapacity(min(expected ?? 64 * 1024, limit))
        var checked = context.validatePrefix == nil
        do {
            for try await buffer in response.body {
                data.append(contentsOf: buffer.readableBytesView)
                if !checked, data.count >= context.prefixLength {
                    try checkPrefix(data, host: host, contentType: contentType, context: context)
                    checked = true
                }
                if data.count > limit { throw FetchError.tooLarge(limit: limit) }
            }
        } catch let error as FetchError {
            throw error
        } catch {
            throw Self.fetchError(error, host: host)
        }
        if !checked { try checkPrefix(data, host: host, contentType: contentType, context: context) }
        return FetchedBody(finalURL: target.string, contentType: contentType, data: data)
    }

    private func checkPrefix(_ data: Data, host: String, contentType: String?, context: FetchContext)
        throws(FetchError)
    {
        guard let validate = context.validatePrefix else { return }
        guard validate(Array(data.prefix(context.prefixLength))) else {
            throw .notAnImage(host: host, contentType: contentType)
        }
    }

    // MARK: - Errors from below

    static func fetchError(_ error: any Error, host: String) -> FetchError {
        if let error = error as? FetchError { return error }
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout, .deadlineExceeded, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
                return .timeout(host: host)
            case .cancelled:
                return .connectionFailed(host: host, detail: "cancelled")
            default:
                return .connectionFailed(host: host, detail: "\(error)")
            }
        }
        if let error = error as? ChannelError, case .connectTimeout = error { return .timeout(host: host) }
        if error is CancellationError { return .connectionFailed(host: host, detail: "cancelled") }
        return .connectionFailed(host: host, detail: "\(error)")
    }

    /// Whether `error` came before any connection existed, so another address of the host may do better.
    static func isConnectFailure(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError { return error == .connectTimeout }
        if let error = error as? ChannelError, case .connectTimeout = error { return true }
        return error is NIOConnectionError || error is IOError
    }
}
