import Foundation

/// The credits of a collection (a gallery): every item's attribution in order with its licence and facts,
/// and warnings naming the items that may not be used commercially, may not be changed, or whose licence is
/// unknown (docs/licences.md, "Credits"). Pure, like `Attribution`; the API, the export and the CLI write
/// these same strings.
public struct Credits: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        /// The item's id in its collection (a gallery item's `gi_…`).
        public var id: String
        public var attribution: Attribution
        /// Whether its file may not be shared (`Item.isRestricted`).
        public var restricted: Bool

        public init(id: String, attribution: Attribution, restricted: Bool = false) {
            self.id = id
            self.attribution = attribution
            self.restricted = restricted
        }

        /// Why its file may not be shared, in a few words.
        var restrictionReason: String {
            attribution.isLicenseUnknown ? "its licence is unknown" : "all rights reserved"
        }
    }

    /// What an export did with the files of restricted items (docs/galleries.md, "Export").
    public enum RestrictedFiles: Sendable, Hashable {
        /// Left out: the export may be shared.
        case leftOut
        /// Written too, at the owner's explicit choice: a private copy.
        case included
    }

    /// What a warning is about.
    public enum Concern: String, Sendable, CaseIterable {
        case notCommercial = "not_commercial"
        case noModification = "no_modification"
        case allRightsReserved = "all_rights_reserved"
        case unknownLicense = "unknown_license"
    }

    public struct Warning: Sendable, Hashable {
        public var concern: Concern
        /// Positions (0-based) of the items it names, in order.
        public var indices: [Int]
        public var message: String
    }

    /// The collection's name.
    public var title: String
    public var entries: [Entry]
    /// Set for an export's credits (CREDITS.txt, credits.html): each restricted item then says what became
    /// of its file. `nil` for credits on their own.
    public var restrictedFiles: RestrictedFiles?

    public init(title: String, entries: [Entry], restrictedFiles: RestrictedFiles? = nil) {
        self.title = title
        self.entries = entries
        self.restrictedFiles = restrictedFiles
    }

    /// The export's note on restricted files, before the list; `nil` when there is nothing to say.
    public var restrictedNote: String? {
        let count = entries.filter(\.restricted).count
        guard let restrictedFiles, count > 0 else { return nil }
        let items = "\(count) of \(entries.count) item\(entries.count == 1 ? "" : "s")"
        switch restrictedFiles {
        case .leftOut:
            return "Files left out: \(items) may not be shared (all rights reserved or an unknown licence), so"
                + " \(count == 1 ? "its file is" : "their files are") not in this export. Each is listed below with"
                + " its source page."
        case .included:
            return "Private copy: this export includes the files of \(items) that may not be shared (all rights"
                + " reserved or an unknown licence). Keep it to yourself; do not publish or pass it on."
        }
    }

    /// What became of a restricted item's file, after its credit: `nil` for the others or outside an export.
    public func fileLine(_ entry: Entry) -> String? {
        guard entry.restricted, let restrictedFiles else { return nil }
        switch restrictedFiles {
        case .leftOut:
            let page = entry.attribution.pageURL.flatMap { $0.isEmpty ? nil : $0 }
            return "File left out: \(entry.restrictionReason). "
                + (page.map { "Source page: \($0)" } ?? "No source page is known.")
        case .included: return "File included in this private copy only: \(entry.restrictionReason)."
        }
    }

    /// A warning per concern that names at least one item. Unknown licences and all rights reserved are named
    /// once, under their own warning, not again as "not commercial" and "not to be changed": that would read
    /// as if non-commercial use were fine.
    public var warnings: [Warning] {
        Concern.allCases.compactMap { concern in
            let indices = entries.indices.filter { index in
                let attribution = entries[index].attribution
                let license = attribution.effectiveLicense
                let open = license.allowsReuse
                switch concern {
                case .unknownLicense: return attribution.isLicenseUnknown
                case .allRightsReserved: return license.id == .allRightsReserved
                case .notCommercial: return open && !license.allowsCommercialUse
                case .noModification: return open && !license.allowsModification
                }
            }
            guard !indices.isEmpty else { return nil }
            return Warning(concern: concern, indices: indices, message: message(concern, indices))
        }
    }

    private func message(_ concern: Concern, _ indices: [Int]) -> String {
        let one = indices.count == 1
        let count = "\(indices.count) of \(entries.count) item\(entries.count == 1 ? "" : "s")"
        let names = indices.map { "#\($0 + 1) “\(entries[$0].attribution.displayTitle)”" }.joined(separator: ", ")
        return switch concern {
        case .notCommercial: "\(count) may not be used commercially: \(names)."
        case .noModification: "\(count) may not be changed: \(names)."
        case .allRightsReserved:
            "\(count) \(one ? "is" : "are") all rights reserved, so ask the creator before any reuse: \(names)."
        case .unknownLicense:
            "\(count) \(one ? "has" : "have") an unknown licence, so do not reuse \(one ? "it" : "them") without "
                + "asking the creator: \(names)."
        }
    }

    var heading: String { "Credits for “\(title)”" }

    // MARK: - Plain text (CREDITS.txt)

    /// The heading, the warnings, then each credit numbered with its licence and facts on a second line.
    public var text: String {
        var lines = [heading, ""]
        if let restrictedNote { lines += [restrictedNote, ""] }
        for warning in warnings { lines.append("Warning: \(warning.message)") }
        if !warnings.isEmpty { lines.append("") }
        if entries.isEmpty { lines.append("No items.") }
        for (index, entry) in entries.enumerated() {
            let marker = "\(index + 1). "
            let indent = String(repeating: " ", count: marker.count)
            lines.append(marker + entry.attribution.text)
            lines.append(indent + Self.licenseLine(entry.attribution))
            if let file = fileLine(entry) { lines.append(indent + file) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `CC BY 2.0 (cc-by-2.0): You may use this commercially. You may change it. Credit required.`
    public static func licenseLine(_ attribution: Attribution) -> String {
        let license = attribution.effectiveLicense
        return "\(license.naming.name) (\(license.id)): \(license.facts)"
    }

    // MARK: - Markdown

    public var markdown: String {
        var lines = ["# \(Markup.markdown(heading))", ""]
        if let restrictedNote { lines += ["**\(Markup.markdown(restrictedNote))**", ""] }
        for warning in warnings { lines.append("> **Warning:** \(Markup.markdown(warning.message))") }
        if !warnings.isEmpty { lines.append("") }
        if entries.isEmpty { lines.append("No items.") }
        for (index, entry) in entries.enumerated() {
            let marker = "\(index + 1). "
            lines.append(marker + entry.attribution.markdown + "  ")
            let indent = String(repeating: " ", count: marker.count)
            lines.append(
                indent + "*\(Markup.markdown(Self.licenseLine(entry.attribution)))*"
                    + (fileLine(entry) == nil ? "" : "  "))
            if let file = fileLine(entry) { lines.append(indent + Markup.markdown(file)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - HTML (credits.html)

    /// A whole page, readable on its own (the export's `credits.html`); every value escaped.
    public var html: String {
        var lines = [
            "<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<title>\(Markup.html(heading))</title>", "</head>", "<body>", "<h1>\(Markup.html(heading))</h1>",
        ]
        if let restrictedNote { lines.append("<p class=\"restricted-files\">\(Markup.html(restrictedNote))</p>") }
        if !warnings.isEmpty {
            lines.append("<ul class=\"warnings\">")
            for warning in warnings {
                lines.append("<li class=\"\(warning.concern.rawValue)\">\(Markup.html(warning.message))</li>")
            }
            lines.append("</ul>")
        }
        if entries.isEmpty { lines.append("<p>No items.</p>") }
        if !entries.isEmpty {
            lines.append("<ol class=\"credits\">")
            for entry in entries {
                let file = fileLine(entry).map { "<p class=\"file\">\(Markup.html($0))</p>" } ?? ""
                lines.append(
                    "<li id=\"\(Markup.attribute(entry.id))\">\(entry.attribution.html)"
                        + "<p class=\"license\">\(Markup.html(Self.licenseLine(entry.attribution)))</p>\(file)</li>")
            }
            lines.append("</ol>")
        }
        lines += ["</body>", "</html>"]
        return lines.joined(separator: "\n") + "\n"
    }
}

extension License {
    /// The three facts in plain words, as the web app says them (`licenseFacts` in `attribution.js`).
    public var facts: String {
        switch id {
        case .unknown, .allRightsReserved: return "Ask the creator before any reuse."
        default:
            return [
                allowsCommercialUse ? "You may use this commercially." : "Not for commercial use.",
                allowsModification ? "You may change it." : "Do not change it.",
                requiresCredit ? "Credit required." : "No credit required.",
            ].joined(separator: " ")
        }
    }
}
