import Foundation
import Logging
import TesseraAccounts
import TesseraCore
import TesseraPostgres
import TesseraSources

/// Every setting in one place, layered: defaults, then the environment, then command-line flags
/// (the CLI applies flags on top of `init(environment:)`). Each has one name and one line in the README.
public struct AppConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// The data folder: SQLite database, caches, the image-signing secret.
    public var dataDirectory: URL
    /// `TESSERA_MEDIA`: the galleries' image copies; nil: `gallery-images` in the data folder (`mediaDirectory`).
    public var mediaOverride: URL?
    /// Where the galleries' image copies live: a folder several servers on one PostgreSQL database may share.
    public var mediaDirectory: URL { mediaOverride ?? DataFolder(dataDirectory).galleryImagesFolder }
    /// Folders of the user's own photos (the `local` source).
    public var libraries: [String] = []
    /// The sample photos shipped in `Samples/`, searched when no library is configured (`TESSERA_SAMPLES`,
    /// else found beside the working folder or the executable; `none` turns them off).
    public var samplesDirectory: String?
    /// How long each source may take before its section fails with a timeout.
    public var sourceTimeout: Duration = .seconds(8)
    public var sources: SourceSettings
    /// `TESSERA_<SOURCE>_BUDGET`: the requests each service may be sent, by every user together.
    public var budgets = SourceBudgetSettings()
    /// `TESSERA_SECRET`: signs image URLs; a random one is kept in the data folder when unset.
    public var secret: String?
    /// `TESSERA_TOKEN`: the shared secret of `token` mode; the CLI sends it to `remoteServer` (in accounts mode,
    /// a personal access token).
    public var token: String?
    /// `TESSERA_AUTH`: nil when unset, which means `token` with a token and `none` without (see `auth`).
    public var authSetting: AuthMode?
    /// Who may use the server: `TESSERA_AUTH`, else `token` when `TESSERA_TOKEN` is set (deployments from before
    /// the setting keep working), else `none`.
    public var auth: AuthMode { authSetting ?? (token == nil ? .none : .token) }
    /// `TESSERA_PUBLIC_URL`: the address people open (`https://photos.example.org`) when a proxy stands in
    /// front: cookies are `Secure` when it is https, and state-changing requests must come from its origin.
    public var publicURL: URL?
    public var accounts = AccountSettings()
    /// `TESSERA_SERVER`: a running Tessera that `tessera search`, `library search` and `gallery` talk to
    /// (through TesseraClient) instead of opening the data folder; nil works locally.
    public var remoteServer: URL?
    public var logLevel: Logger.Level = .info
    /// `TESSERA_LOG_FORMAT`: `text` lines, or one JSON object per line.
    public var logFormat: LogFormat = .text
    public var images = ImageSettings()
    /// `TESSERA_PREVIEW_*`: the media route's limits (docs/media.md).
    public var previews = PreviewSettings()
    public var connections = ConnectionSettings()
    public var fairUse = FairUseSettings()
    /// `TESSERA_DATABASE_URL`: the PostgreSQL database several servers share; `nil`: SQLite in the data folder.
    public var databaseURL: PostgresURL?
    /// `TESSERA_DATABASE_POOL`: connections this server opens to PostgreSQL at most (docs/cluster.md: why 10).
    public var databasePool = 10

    /// Defaults overridden by `environment` (`TESSERA_*`, `PIXABAY_API_KEY`, `FLICKR_API_KEY`).
    public init(environment: [String: String]) throws(ConfigurationError) {
        dataDirectory = Self.defaultDataDirectory(environment)
        do {
            sources = try SourceSettings(environment: environment)
        } catch {
            throw .invalid(error.description)
        }
        budgets = try SourceBudgetSettings(environment: environment, sources: sources)
        if let host = environment["TESSERA_HOST"], !host.isEmpty { self.host = host }
        if let port = environment["TESSERA_PORT"], !port.isEmpty { self.port = try Self.parsePort(port) }
        if let data = environment["TESSERA_DATA"], !data.isEmpty { dataDirectory = URL(fileURLWithPath: data) }
        if let media = environment["TESSERA_MEDIA"], !media.isEmpty { mediaOverride = URL(fileURLWithPath: media) }
        if let libraries = environment["TESSERA_LIBRARY"], !libraries.isEmpty {
            self.libraries = libraries.split(separator: ":").map(String.init)
        }
        samplesDirectory = Self.findSamples(environment["TESSERA_SAMPLES"])
        if let timeout = environment["TESSERA_SOURCE_TIMEOUT"], !timeout.isEmpty {
            sourceTimeout = try Self.parseTimeout(timeout)
        }
        secret = environment["TESSERA_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        token = environment["TESSERA_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let auth = environment["TESSERA_AUTH"], !auth.trimmingCharacters(in: .whitespaces).isEmpty {
            authSetting = try AuthMode.parse(auth)
        }
        if let text = environment["TESSERA_PUBLIC_URL"], !text.trimmingCharacters(in: .whitespaces).isEmpty {
            publicURL = try Self.parsePublicURL(text)
        }
        accounts = try AccountSettings(environment: environment)
        if let server = environment["TESSERA_SERVER"], !server.isEmpty {
            remoteServer = try Self.parseServerURL(server)
        }
        images = try ImageSettings(environment: environment)
        previews = try PreviewSettings(environment: environment)
        connections = try ConnectionSettings(environment: environment)
        fairUse = try FairUseSettings(environment: environment)
        if let url = environment["TESSERA_DATABASE_URL"], !url.trimmingCharacters(in: .whitespaces).isEmpty {
            databaseURL = try Self.parseDatabaseURL(url)
        }
        if let text = environment["TESSERA_DATABASE_POOL"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let value = Int(text), (1...1_000).contains(value) else {
                throw .invalid("TESSERA_DATABASE_POOL must be a whole number from 1 to 1000 (got \"\(text)\").")
            }
            databasePool = value
        }
        if let level = environment["TESSERA_LOG_LEVEL"], !level.isEmpty {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                throw .invalid("TESSERA_LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical.")
            }
            logLevel = parsed
        }
        if let format = environment["TESSERA_LOG_FORMAT"], !format.isEmpty {
            guard let parsed = LogFormat(rawValue: format.lowercased()) else {
                throw .invalid("TESSERA_LOG_FORMAT must be text or json (got \"\(format)\").")
            }
            logFormat = parsed
        }
    }

    /// The folders the `local` source searches: the configured libraries, else the samples.
    public var libraryRoots: [String] {
        if !libraries.isEmpty { return libraries }
        return samplesDirectory.map { [$0] } ?? []
    }

    /// `Samples/` with its `CREDITS.md`: in the working folder, else in a folder above the executable
    /// (`.build/release/tessera` in a checkout).
    static func findSamples(_ configured: String?) -> String? {
        if let configured, !configured.isEmpty { return configured == "none" ? nil : configured }
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        for _ in 0..<5 {
            folder = folder.deletingLastPathComponent()
            candidates.append(folder)
        }
        for candidate in candidates {
            let samples = candidate.appendingPathComponent("Samples")
            if FileManager.default.fileExists(atPath: samples.appendingPathComponent("CREDITS.md").path) {
                return samples.path
            }
        }
        return nil
    }

    /// `$XDG_DATA_HOME/tessera`, else `~/.local/share/tessera`.
    static func defaultDataDirectory(_ environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("tessera")
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share/tessera")
    }

    public static func parsePort(_ text: String) throws(ConfigurationError) -> Int {
        guard let port = Int(text), (0...65535).contains(port) else {
            throw .invalid("The port must be a number from 0 to 65535 (got \"\(text)\").")
        }
        return port
    }

    /// The message names what is wrong, never the URL itself: it may hold a password.
    public static func parseDatabaseURL(_ text: String) throws(ConfigurationError) -> PostgresURL {
        do {
            return try PostgresURL(parsing: text)
        } catch {
            throw .invalid(error.description)
        }
    }

    public static func parseTimeout(_ text: String) throws(ConfigurationError) -> Duration {
        guard let seconds = Double(text), seconds > 0, seconds <= 300 else {
            throw .invalid("The source timeout must be a number of seconds above 0 and at most 300 (got \"\(text)\").")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// An http(s) address of a running Tessera, such as `http://127.0.0.1:8080`.
    public static func parseServerURL(_ text: String) throws(ConfigurationError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else {
            throw .invalid("The server must be an http(s) address such as http://127.0.0.1:8080 (got \"\(text)\").")
        }
        return url
    }

    /// `TESSERA_PUBLIC_URL`: an http(s) origin, perhaps with a path prefix the proxy adds.
    public static func parsePublicURL(_ text: String) throws(ConfigurationError) -> URL {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)),
            let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host?.isEmpty == false
        else {
            throw .invalid(
                "TESSERA_PUBLIC_URL must be the http(s) address people open, such as https://photos.example.org (got \"\(text)\")."
            )
        }
        return url
    }

    /// Refuses settings that would expose the server unasked, or a mode that is missing what it needs.
    public func validateForServing() throws(ConfigurationError) {
        switch auth {
        case .none where !Self.isLoopback(host):
            throw .invalid(
                "Binding to \(host) makes Tessera reachable from the network, and TESSERA_AUTH=none would let anyone"
                    + " who reaches it see and change everything: set TESSERA_AUTH=accounts (and add users with"
                    + " tessera user add) or TESSERA_TOKEN to a secret first (or use --host 127.0.0.1).")
        case .token where token == nil:
            throw .invalid("TESSERA_AUTH=token needs TESSERA_TOKEN set to a secret.")
        default:
            break
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// The image proxy's limits and caches (`TESSERA_IMAGE_*`).
public struct ImageSettings: Sendable, Hashable {
    /// Served images kept in memory.
    public var memoryCacheBytes = 256 * 1024 * 1024
    /// Served images kept in the data folder.
    public var diskCacheBytes = 2 * 1024 * 1024 * 1024
    /// Largest body fetched from a source.
    public var maxBytes = 25 * 1024 * 1024
    /// Largest image (width × height) decoded.
    public var maxPixels = 50_000_000
    /// Images resized at once.
    public var concurrency = ProcessInfo.processInfo.activeProcessorCount
    /// Fetch images from loopback and private networks too (origins of source overrides always are).
    public var allowPrivateNetworks = false
    /// Make each streamed page's thumbnails at once, to group its pictures by look and warm the caches
    /// (docs/duplicates.md).
    public var prefetch = true
    /// How long a stream waits, after its last section, for the thumbnails the prefetch is still making.
    public var prefetchWaitSeconds = 3

    public init() {}

    init(environment: [String: String]) throws(ConfigurationError) {
        func number(_ name: String, _ range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw .invalid(
                    "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound) (got \"\(text)\").")
            }
            return value
        }
        let megabyte = 1024 * 1024
        if let value = try number("TESSERA_IMAGE_MEMORY_MB", 0...65_536) { memoryCacheBytes = value * megabyte }
        if let value = try number("TESSERA_IMAGE_DISK_MB", 0...10_000_000) { diskCacheBytes = value * megabyte }
        if let value = try number("TESSERA_IMAGE_MAX_MB", 1...1_024) { maxBytes = value * megabyte }
        if let value = try number("TESSERA_IMAGE_MAX_MEGAPIXELS", 1...1_000) { maxPixels = value * 1_000_000 }
        if let value = try number("TESSERA_IMAGE_CONCURRENCY", 1...256) { concurrency = value }
        if let value = try number("TESSERA_IMAGE_PREFETCH_WAIT", 1...60) { prefetchWaitSeconds = value }
        func flag(_ name: String) throws(ConfigurationError) -> Bool? {
            guard let text = environment[name]?.lowercased(), !text.isEmpty else { return nil }
            switch text {
            case "1", "true", "yes": return true
            case "0", "false", "no": return false
            default: throw .invalid("\(name) must be true or false (got \"\(text)\").")
            }
        }
        if let value = try flag("TESSERA_IMAGE_ALLOW_PRIVATE") { allowPrivateNetworks = value }
        if let value = try flag("TESSERA_IMAGE_PREFETCH") { prefetch = value }
    }
}

/// What each connection may take of the server (`TESSERA_*_TIMEOUT`, `TESSERA_MAX_CONNECTIONS`);
/// the defaults and why are in docs/limits.md.
public struct ConnectionSettings: Sendable, Hashable {
    public var timeouts = ConnectionTimeouts()
    /// Open connections at most; `nil` derives it from the open-file limit at start.
    public var maxConnections: Int?
    /// Between two comments on an otherwise quiet event stream.
    public var heartbeat: Duration = .seconds(15)

    public init() {}

    init(environment: [String: String]) throws(ConfigurationError) {
        func seconds(_ name: String, _ range: ClosedRange<Double>) throws(ConfigurationError) -> Duration? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            guard let value = Double(text), range.contains(value) else {
                throw .invalid(
                    "\(name) must be a number of seconds from \(range.lowerBound) to \(range.upperBound) (got \"\(text)\")."
                )
            }
            return .milliseconds(Int64((value * 1000).rounded()))
        }
        if let value = try seconds("TESSERA_HEADER_TIMEOUT", 0.1...3600) { timeouts.header = value }
        if let value = try seconds("TESSERA_BODY_TIMEOUT", 0.1...3600) { timeouts.body = value }
        if let value = try seconds("TESSERA_IDLE_TIMEOUT", 0.1...86400) { timeouts.idle = value }
        if let value = try seconds("TESSERA_SEND_TIMEOUT", 0.1...3600) { timeouts.send = value }
        if let value = try seconds("TESSERA_HEARTBEAT", 0.1...30) { heartbeat = value }
        if let text = environment["TESSERA_MAX_CONNECTIONS"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let value = Int(text), (1...10_000_000).contains(value) else {
                throw .invalid("TESSERA_MAX_CONNECTIONS must be a whole number from 1 to 10000000 (got \"\(text)\").")
            }
            maxConnections = value
        }
    }
}

/// Budgets per client address for expensive requests (`TESSERA_*_RATE`) and the proxies whose
/// `X-Forwarded-For` is believed (`TESSERA_TRUSTED_PROXIES`); the defaults and why are in docs/limits.md.
public struct FairUseSettings: Sendable, Hashable {
    public var rates: [FairUse.Kind: Rate] = [
        .search: Rate(count: 60, period: 60), .importing: Rate(count: 30, period: 60),
        .export: Rate(count: 10, period: 60),
    ]
    public var trustedProxies: [IPNetwork] = []
    /// Open event streams per client address; `nil` for no cap.
    public var maxStreamsPerClient: Int? = 16

    public init() {}

    init(environment: [String: String]) throws(ConfigurationError) {
        let names: [(String, FairUse.Kind)] = [
            ("TESSERA_SEARCH_RATE", .search), ("TESSERA_IMPORT_RATE", .importing), ("TESSERA_EXPORT_RATE", .export),
        ]
        for (name, kind) in names {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { continue }
            rates[kind] = try Self.parseRate(text, name: name)
        }
        if let text = environment["TESSERA_MAX_STREAMS_PER_CLIENT"]?.trimmingCharacters(in: .whitespaces),
            !text.isEmpty
        {
            if text.lowercased() == "off" {
                maxStreamsPerClient = nil
            } else {
                guard let value = Int(text), (1...100_000).contains(value) else {
                    throw .invalid(
                        "TESSERA_MAX_STREAMS_PER_CLIENT must be a whole number from 1 to 100000 or \"off\" (got \"\(text)\")."
                    )
                }
                maxStreamsPerClient = value
            }
        }
        if let text = environment["TESSERA_TRUSTED_PROXIES"], !text.trimmingCharacters(in: .whitespaces).isEmpty {
            trustedProxies = try text.split(separator: ",").map { (entry) throws(ConfigurationError) in
                guard let network = IPNetwork(entry) else {
                    throw .invalid(
                        "TESSERA_TRUSTED_PROXIES lists IP addresses or CIDR networks, comma-separated (got \"\(entry)\")."
                    )
                }
                return network
            }
        }
    }

    /// `N/s`, `N/min` or `N/h`; `off` (or `0`) sets no limit.
    public static func parseRate(_ text: String, name: String) throws(ConfigurationError) -> Rate? {
        let lowered = text.lowercased()
        if lowered == "off" || lowered == "0" { return nil }
        let parts = lowered.split(separator: "/")
        let periods: [String: Double] = ["s": 1, "sec": 1, "min": 60, "m": 60, "h": 3600, "hour": 3600]
        guard parts.count == 2, let count = Int(parts[0].trimmingCharacters(in: .whitespaces)),
            (1...1_000_000).contains(count), let period = periods[parts[1].trimmingCharacters(in: .whitespaces)]
        else {
            throw .invalid("\(name) must be a number per s, min or h, like \"60/min\", or \"off\" (got \"\(text)\").")
        }
        return Rate(count: count, period: period)
    }
}

public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let message): message
        }
    }
}
