import Crypto
import Foundation
import TesseraCore
import TesseraSources

/// Each service's request budget (`TESSERA_<SOURCE>_BUDGET`): by default what its published terms allow, for
/// every user of the server together. Where each figure comes from, and why a service at an overridden address
/// has none by default: docs/sources.md, "Request budgets".
public struct SourceBudgetSettings: Sendable, Hashable {
    /// The limits of each service, from its terms; the sources docs/sources.md cites for each.
    public static let published: [SourceID: [BudgetLimit]] = [
        .pixabay: [.perMinute(100)],
        .flickr: [.perHour(3_600)],
        .openverse: [.perHour(5), .perDay(100)],
        .wikimedia: [.perMinute(60)],
        .itunes: [.perMinute(20)],
    ]

    /// The limits each service is held to; an empty list counts nothing (a 429 still pauses the source).
    public var limits: [SourceID: [BudgetLimit]]

    public init(limits: [SourceID: [BudgetLimit]] = Self.published) {
        self.limits = limits
    }

    public static func variable(_ source: SourceID) -> String {
        "TESSERA_\(source.rawValue.uppercased())_BUDGET"
    }

    /// The published limits for each service at its own address, none for one whose address was overridden
    /// (a stand-in or a private mirror has no such terms), then `TESSERA_<SOURCE>_BUDGET` for either.
    init(environment: [String: String], sources: SourceSettings) throws(ConfigurationError) {
        let overridden = Set(sources.overriddenBases)
        limits = [:]
        for (source, published) in Self.published {
            let base = sources.base(of: source)
            limits[source] = base.map { overridden.contains($0) } == true ? [] : published
            let name = Self.variable(source)
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { continue }
            guard let parsed = BudgetLimit.parseList(text) else {
                throw .invalid(
                    "\(name) must be requests per s, min, h or d, several separated by commas, like \"100/min\" or"
                        + " \"5/h,100/d\", or \"off\" (got \"\(text)\").")
            }
            limits[source] = parsed
        }
    }

    /// The budget of every service, named by the source and a fingerprint of its API key: servers sharing a
    /// database and a key share the budget; a new key starts afresh. The key itself is never stored.
    public func budgets(keys: SourceSettings) -> [SourceID: RequestBudget] {
        var budgets: [SourceID: RequestBudget] = [:]
        for source in Self.published.keys {
            let key = keys.key(of: source)
            let name = key.map { "\(source.rawValue):" + Self.fingerprint($0) } ?? source.rawValue
            budgets[source] = RequestBudget(name: name, source: source, limits: limits[source] ?? [])
        }
        return budgets
    }

    static func fingerprint(_ key: String) -> String {
        SHA256.hash(data: Data(key.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
    }
}

extension SourceSettings {
    /// The base URL of `source`, `nil` for one that is not a web service.
    func base(of source: SourceID) -> URL? {
        switch source {
        case .pixabay: pixabayBase
        case .flickr: flickrBase
        case .openverse: openverseBase
        case .wikimedia: wikimediaBase
        case .itunes: itunesBase
        default: nil
        }
    }

    /// The API key `source` is asked with, if it takes one.
    func key(of source: SourceID) -> String? {
        switch source {
        case .pixabay: pixabayKey
        case .flickr: flickrKey
        default: nil
        }
    }
}
