import Foundation
import TesseraCore

/// Where each service lives and the keys it needs: defaults, overridden by `TESSERA_<SOURCE>_URL`
/// and the services' key variables.
public struct SourceSettings: Sendable, Hashable {
    public var pixabayBase: URL
    public var pixabayKey: String?
    public var flickrBase: URL
    public var flickrKey: String?
    public var openverseBase: URL
    public var wikimediaBase: URL
    public var itunesBase: URL

    /// Each service's own address, written only here; `TESSERA_<SOURCE>_URL` replaces it (docs/sources.md).
    public static let defaultBases: [SourceID: URL] = [
        .pixabay: URL(string: "https://pixabay.com/api/")!,
        .flickr: URL(string: "https://api.flickr.com/services/rest/")!,
        .openverse: URL(string: "https://api.openverse.org/v1/")!,
        .wikimedia: URL(string: "https://commons.wikimedia.org/w/api.php")!,
        .itunes: URL(string: "https://itunes.apple.com/")!,
    ]

    /// The variable that overrides each source's base URL.
    public static func urlVariable(_ source: SourceID) -> String {
        "TESSERA_\(source.rawValue.uppercased())_URL"
    }

    /// Reads overrides and keys from `environment`; a malformed override is an error, not a silent default.
    public init(environment: [String: String]) throws(SourceSettingsError) {
        func base(_ source: SourceID) throws(SourceSettingsError) -> URL {
            let variable = Self.urlVariable(source)
            guard let raw = environment[variable]?.trimmingWhitespace, !raw.isEmpty else {
                return Self.defaultBases[source]!
            }
            guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme),
                url.host != nil
            else { throw .invalidURL(variable: variable, value: raw) }
            return url
        }
        pixabayBase = try base(.pixabay)
        flickrBase = try base(.flickr)
        openverseBase = try base(.openverse)
        wikimediaBase = try base(.wikimedia)
        itunesBase = try base(.itunes)
        pixabayKey = environment["PIXABAY_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        flickrKey = environment["FLICKR_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The base URLs an override set. The image fetcher trusts their origins even on a private network.
    public var overriddenBases: [URL] {
        let defaults = Set(Self.defaultBases.values)
        return [pixabayBase, flickrBase, openverseBase, wikimediaBase, itunesBase].filter { !defaults.contains($0) }
    }
}

public enum SourceSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidURL(variable: String, value: String)

    public var description: String {
        switch self {
        case .invalidURL(let variable, let value):
            "\(variable) must be an http or https URL with a host, like https://example.org/api/ (got \"\(value)\")."
        }
    }
}
