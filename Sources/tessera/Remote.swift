import ArgumentParser
import Foundation
import TesseraClient
import TesseraCore
import TesseraServer

/// `--server URL`: the commands that have it talk to a running Tessera through TesseraClient instead of
/// opening the data folder, and print the same output.
struct RemoteOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A running Tessera to use instead of the data folder (http://host:port); env TESSERA_SERVER, with "
                + "TESSERA_TOKEN as its token.",
            valueName: "url"))
    var server: String?

    /// The server to talk to (the flag, else `TESSERA_SERVER`); nil to work locally.
    func client(_ configuration: AppConfiguration) throws -> TesseraClient? {
        var url = configuration.remoteServer
        if let server {
            do {
                url = try AppConfiguration.parseServerURL(server)
            } catch {
                throw Exit.badInput(error.description)
            }
        }
        return url.map { TesseraClient(serverURL: $0, token: configuration.token) }
    }
}

/// What the remote forms share: errors as exit statuses, and the server's values as the local types, so
/// the local renderers print them byte for byte as they print their own.
enum Remote {
    /// Runs a client call; its error becomes an exit (after saying why).
    static func run<T>(_ body: () async throws(TesseraClientError) -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw exitCode(for: error)
        }
    }

    /// As locally: a request that cannot be right (400) or names nothing (404) is bad input, status 2;
    /// anything else (refusals, conflicts, an unreachable server, a wrong token) is a failure, status 1.
    static func exitCode(for error: TesseraClientError) -> ExitCode {
        switch error {
        case .badRequest(400, _, _), .notFound, .invalidImageURL:
            Exit.badInput(error.description)
        case .nearDuplicate(_, let title, _):
            Exit.failure(GalleryCLI.nearDuplicate(title: title))
        default:
            Exit.failure(error.description)
        }
    }

    /// `value` (a TesseraClient type) as the local type with the same JSON (`T`): both speak the API's JSON.
    static func local<T: Decodable>(_ value: some Encodable, as type: T.Type = T.self) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: JSONEncoder.tessera.encode(value))
        } catch {
            throw Exit.failure("The server's answer does not read as a \(T.self): \(error)")
        }
    }
}

// MARK: - Search

extension Remote {
    /// The search `tessera search` runs, asked of the server.
    static func search(_ request: SearchRequest, on client: TesseraClient) async throws -> SearchResponse {
        let results = try await run { () async throws(TesseraClientError) in
            let filters = request.filters
            return try await client.search(
                request.query, scope: .init(rawValue: request.scope.rawValue)!, page: request.page,
                filter: SearchFilter(
                    license: filters.license.map { _ in filters.value(of: .license) },
                    orientation: filters.orientation?.rawValue, size: filters.size?.rawValue,
                    color: filters.color?.rawValue, type: filters.type?.rawValue))
        }
        return try local(results)
    }
}
