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

    /// The variable that overrides each source's base URL.
    public static func urlVariable(_ source: SourceID) -> String {
        "TESSERA_\(source.rawValue.uppercased())_URL"
    }

    /// Reads overrides and keys from `environment`; a malformed override is an error, not a silent default.
    public init(environment: [String: String]) throws(SourceSettingsError) {
        func base(_ source: SourceID, _ fallback: String) throws(SourceSettingsError) -> URL {
            let variable = Self.urlVariable(source)
            guard let raw = environment[variable]?.trimmingWhitespace, !raw.isEmpty else {
                return URL(string: fallback)!
            }
            guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme),
                url.host != nil
            else { throw .invalidURL(variable: variable, value: raw) }
            return url
        }
        pixabayBase = try base(.pixabay, "https://pixabay.com/api/")
        flickrBase = try base(.flickr, "https://api.flickr.com/services/rest/")
        openverseBase = try base(.openverse, "https://api.openverse.org/v1/")
        wikimediaBase = try base(.wikimedia, "https://commons.wikimedia.org/w/api.php")
        itunesBase = try base(.itunes, "https://itunes.apple.com/")
        pixabayKey = environment["PIXABAY_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        flickrKey = environment["FLICKR_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The base URLs an override set. The image fetcher trusts their origins even on a private network.
    public var overriddenBases: [URL] {
        let defaults = Set([
            "https://pixabay.com/api/", "https://api.flickr.com/services/rest/", "https://api.openverse.org/v1/",
            "https://commons.wikimedia.org/w/api.php", "https://itunes.apple.com/",
        ])
        return [pixabayBase, flickrBase, openverseBase, wikimediaBase, itunesBase].filter {
            !defaults.contains($0.absoluteString)
        }
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
