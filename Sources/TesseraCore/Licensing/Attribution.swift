import Foundation

/// The credit line for one item, in the formats people paste it into (docs/licences.md, "Credits"): plain
/// text, HTML, Markdown and XML. It follows TASL (Title, Author, Source, Licence), says "unknown licence"
/// when the licence cannot be read instead of guessing, and writes the same plain text as the web app's
/// `attributionText` (`Web/shared/attribution.js`) for the same item. Pure: a value in, strings out.
public struct Attribution: Sendable, Hashable {
    public var title: String
    public var creator: Creator?
    /// The service the item came from ("Flickr"); `nil` for the person's own (library, uploads, web imports).
    public var sourceName: String?
    /// The item's landing page at its source.
    public var pageURL: String?
    /// `nil` (nothing known) reads as the unknown licence.
    public var license: License?

    public init(
        title: String, creator: Creator? = nil, sourceName: String? = nil, pageURL: String? = nil,
        license: License? = nil
    ) {
        self.title = title
        self.creator = creator
        self.sourceName = sourceName
        self.pageURL = pageURL
        self.license = license
    }

    /// An item's credit: its source is named for the services a search reaches, not for the person's own.
    public init(item: Item) {
        let named = item.source != .local && item.source != .web && item.source != .upload
        self.init(
            title: item.title, creator: item.creator, sourceName: named ? item.source.title : nil,
            pageURL: item.pageURL, license: item.license)
    }

    public enum Format: String, Sendable, CaseIterable {
        case text, html, markdown, xml
    }

    public func formatted(_ format: Format) -> String {
        switch format {
        case .text: text
        case .html: html
        case .markdown: markdown
        case .xml: xml
        }
    }

    /// The licence the facts come from: the unknown licence when the item has none.
    public var effectiveLicense: License { license ?? Licenses.unknown() }
    public var isLicenseUnknown: Bool { effectiveLicense.id == .unknown }

    var displayTitle: String {
        let trimmed = title.trimmingWhitespace
        return trimmed.isEmpty ? "Untitled" : trimmed
    }

    var creatorName: String? {
        guard let name = creator?.name.trimmingWhitespace, !name.isEmpty else { return nil }
        return name
    }

    /// How the licence is said, between the author and the source (`LicenseNaming.Statement`).
    enum LicenseClause {
        /// "is under an unknown licence: ask the creator before any reuse."
        case unknown
        /// "All rights reserved: ask the creator before any reuse.", with the service's own wording when it
        /// says more (a © notice, a store's terms) in brackets.
        case reserved(detail: String?)
        /// "is licensed under", "is marked with", "is in the public domain (…)", "has no known copyright
        /// restrictions", "is in the public domain": `before` the linked name, the name, `after` it.
        case named(before: String, name: String?, after: String, deed: String?, deedNoun: String?)
    }

    var licenseClause: LicenseClause { licenseClause(effectiveLicense.naming) }

    func licenseClause(_ naming: LicenseNaming) -> LicenseClause {
        let license = effectiveLicense
        switch naming.statement {
        case .unknown: return .unknown
        case .reserved:
            let name = license.name.trimmingCharacters(in: .whitespacesAndNewlines)
            let plain = name.isEmpty || name.lowercased() == "all rights reserved"
            return .reserved(detail: plain ? nil : name)
        case .license:
            return .named(
                before: " is licensed under ", name: naming.nameInSentence, after: ".", deed: naming.deed,
                deedNoun: "license")
        case .dedication:
            return .named(
                before: " is marked with ", name: naming.name, after: ".", deed: naming.deed, deedNoun: "dedication")
        case .mark:
            return .named(
                before: " is in the public domain (", name: naming.name, after: ").", deed: naming.deed,
                deedNoun: "mark")
        case .publicDomain:
            return .named(before: " is in the public domain.", name: nil, after: "", deed: nil, deedNoun: nil)
        case .noKnownRestrictions:
            return .named(
                before: " has ", name: "no known copyright restrictions", after: ".", deed: naming.deed, deedNoun: nil)
        }
    }

    /// The sentence after "by Author" for `.reserved` and `.unknown`, the same in every format but for
    /// escaping the detail.
    static func reservedSentence(_ detail: String?, escape: (String) -> String) -> String {
        ". All rights reserved" + (detail.map { " (\(escape($0)))" } ?? "") + ": \(LicenseNames.askFirst)."
    }

    static let unknownSentence = " is under an unknown licence: \(LicenseNames.askFirst)."

    // MARK: - Plain text

    /// `“Title” by Author is licensed under CC BY 2.0. To view a copy of this license, visit URL. Source:
    /// Flickr, https://…` (no full stop after the address, so pasting it keeps the link whole).
    public var text: String { text(licenseClause) }

    /// `text` with the licence's clause already read (`Credit` reads it once for the text and the HTML).
    func text(_ clause: LicenseClause) -> String {
        var text = "“\(displayTitle)”"
        if let creatorName { text += " by \(creatorName)" }
        switch clause {
        case .unknown: text += Self.unknownSentence
        case .reserved(let detail): text += Self.reservedSentence(detail) { $0 }
        case .named(let before, let name, let after, let deed, let deedNoun):
            text += before + (name ?? "") + after
            if let deed, let deedNoun { text += " To view a copy of this \(deedNoun), visit \(deed)." }
        }
        let page = pageURL.flatMap { $0.isEmpty ? nil : $0 }
        switch (sourceName, page) {
        case (let name?, let page?): text += " Source: \(name), \(page)"
        case (let name?, nil): text += " Source: \(name)"
        case (nil, let page?): text += " Source: \(page)"
        case (nil, nil): break
        }
        return text
    }
}
