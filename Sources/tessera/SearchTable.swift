import TesseraCore

/// The search answer as a plain-text table, one block per section. Each picture is shown once: a group's
/// representative keeps its row, with the services of its other copies under it ("also on …"), and the
/// other copies are folded (counted at the end of their section).
enum SearchTable {
    static func render(_ response: SearchResponse) -> String {
        let folding = Folding(response)
        var lines: [String] = []
        if response.sections.isEmpty {
            lines.append("No results for \"\(response.query)\".")
        }
        for section in response.sections {
            lines.append(header(section, page: response.page))
            if let error = section.error {
                lines.append("  ! \(error.message)")
            } else if section.items.isEmpty {
                lines.append("  No results for \"\(response.query)\".")
            } else {
                let first = (response.page - 1) * SearchRequest.pageSize
                var folded: [SectionID] = []
                for (offset, item) in section.items.enumerated() {
                    if let shownIn = folding.shownIn[item.id] {
                        folded.append(shownIn)
                        continue
                    }
                    lines.append(row(number: first + offset + 1, item))
                    if let also = folding.alsoOn[item.id] { lines.append("        also on \(also)") }
                }
                if !folded.isEmpty { lines.append(foldedLine(folded)) }
                if section.hasMore {
                    lines.append("  … more on page \(response.page + 1) (--page \(response.page + 1))")
                }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func header(_ section: SectionResult, page: Int) -> String {
        let total = section.total.map { "\($0) results" } ?? "results"
        let underline = String(repeating: "─", count: section.title.count)
        return "\(section.title) · \(total) · page \(page)\n\(underline)"
    }

    /// Number, title, creator, the licence's badge (what the web app's tile shows: "CC BY", "©", "?"), pixel
    /// size, id.
    private static let rows = TextTable(
        [.right(4), .left(44), .left(20), .left(11), .left(13), .left(nil)], indent: "  ")

    private static func row(number: Int, _ item: Item) -> String {
        let size = item.full.flatMap { ref in Format.dimensions(ref.width, ref.height) } ?? ""
        return rows.row([
            String(number), TextTable.clip(item.title, 44), TextTable.clip(item.creator?.name ?? "", 20),
            LicenseNames.naming(item.license).badge, size, item.id.description,
        ])
    }

    /// "+ 3 copies of pictures listed under Flickr, Pixabay" (the representatives' sections, in page order).
    private static func foldedLine(_ shownIn: [SectionID]) -> String {
        var sections: [SectionID] = []
        for id in shownIn.sorted() where !sections.contains(id) { sections.append(id) }
        let copies = shownIn.count == 1 ? "1 copy of a picture" : "\(shownIn.count) copies of pictures"
        return "  + \(copies) listed under \(sections.map(\.title).joined(separator: ", "))"
    }

    /// What the groups change in the table: which rows say where else their picture is, which are folded.
    private struct Folding {
        /// A representative's other copies' services, in their order: "Openverse, Wikimedia Commons".
        var alsoOn: [ItemID: String] = [:]
        /// A folded copy's representative's section.
        var shownIn: [ItemID: SectionID] = [:]

        init(_ response: SearchResponse) {
            var sectionOf: [ItemID: SectionID] = [:]
            for section in response.sections where section.error == nil {
                for item in section.items where sectionOf[item.id] == nil { sectionOf[item.id] = section.id }
            }
            for group in response.groups ?? [] {
                // A group naming an item that is not on the page (a differing answer) is ignored whole.
                guard let home = sectionOf[group.representative],
                    group.items.allSatisfy({ sectionOf[$0] != nil })
                else { continue }
                var services: [String] = []
                for copy in group.items where copy != group.representative {
                    shownIn[copy] = home
                    if !services.contains(copy.source.title) { services.append(copy.source.title) }
                }
                alsoOn[group.representative] = services.joined(separator: ", ")
            }
        }
    }
}
