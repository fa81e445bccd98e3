/// Where an item comes from: a service Tessera can search, or (`web`, `upload`) an image added to a
/// gallery by its URL or as a file.
public enum SourceID: String, Sendable, Codable, CaseIterable, Hashable, Comparable {
    case local, pixabay, flickr, openverse, wikimedia, itunes, web, upload

    /// The sources a search can reach (every case but the gallery imports).
    public static var searchable: [SourceID] { allCases.filter { $0 != .web && $0 != .upload } }

    /// The name people know the service by.
    public var title: String {
        switch self {
        case .local: "Your library"
        case .pixabay: "Pixabay"
        case .flickr: "Flickr"
        case .openverse: "Openverse"
        case .wikimedia: "Wikimedia Commons"
        case .itunes: "iTunes"
        case .web: "The web"
        case .upload: "Upload"
        }
    }

    public static func < (lhs: SourceID, rhs: SourceID) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A group of results shown together. Declared in display order: `all` always lists sections in this order.
public enum SectionID: String, Sendable, Codable, CaseIterable, Hashable, Comparable {
    case local, pixabay, flickr, openverse, wikimedia, movies, music, apps, books

    public var title: String {
        switch self {
        case .movies: "Movies"
        case .music: "Music"
        case .apps: "Apps"
        case .books: "Books"
        case .local, .pixabay, .flickr, .openverse, .wikimedia: source.title
        }
    }

    /// The source whose results fill this section.
    public var source: SourceID {
        switch self {
        case .local: .local
        case .pixabay: .pixabay
        case .flickr: .flickr
        case .openverse: .openverse
        case .wikimedia: .wikimedia
        case .movies, .music, .apps, .books: .itunes
        }
    }

    public static func < (lhs: SectionID, rhs: SectionID) -> Bool {
        lhs.order < rhs.order
    }

    /// The section's place in display order, from 0.
    public var order: Int { Self.allCases.firstIndex(of: self)! }
}

/// What a search covers: every enabled source at once, or one section.
public enum Scope: Sendable, Hashable, CustomStringConvertible {
    case all
    case section(SectionID)

    /// Parses `all` or a section id; `nil` for anything else.
    public init?(rawValue: String) {
        if rawValue == "all" {
            self = .all
        } else if let section = SectionID(rawValue: rawValue) {
            self = .section(section)
        } else {
            return nil
        }
    }

    public var rawValue: String {
        switch self {
        case .all: "all"
        case .section(let section): section.rawValue
        }
    }

    public var description: String { rawValue }

    /// Every value a client may send, for error messages and documentation.
    public static var allRawValues: [String] { ["all"] + SectionID.allCases.map(\.rawValue) }
}

/// The kind of media an item is.
public enum ItemKind: String, Sendable, Codable, CaseIterable, Hashable {
    case image, video, movie, song, album, app, book
}

/// A provider-qualified item id, `source:nativeID`, unique across sources.
public struct ItemID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let source: SourceID
    public let nativeID: String

    public init(source: SourceID, nativeID: String) {
        self.source = source
        self.nativeID = nativeID
    }

    /// Parses `source:nativeID`; the native part may itself contain colons.
    public init?(_ string: String) {
        guard let colon = string.firstIndex(of: ":"),
            let source = SourceID(rawValue: String(string[..<colon]))
        else { return nil }
        let native = String(string[string.index(after: colon)...])
        guard !native.isEmpty else { return nil }
        self.init(source: source, nativeID: native)
    }

    public var description: String { "\(source.rawValue):\(nativeID)" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let id = ItemID(string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a source:id pair: \(string)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
