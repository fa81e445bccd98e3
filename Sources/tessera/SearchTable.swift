import TesseraCore

/// The search answer as a plain-text table, one block per section.
enum SearchTable {
    static func render(_ response: SearchResponse) -> String {
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
                for (offset, item) in section.items.enumerated() {
                    lines.append(row(number: first + offset + 1, item))
                }
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

    /// Number, title, creator, pixel size, id.
    private static let rows = TextTable([.right(4), .left(44), .left(20), .left(13), .left(nil)], indent: "  ")

    private static func row(number: Int, _ item: Item) -> String {
        let size = item.full.flatMap { ref in Format.dimensions(ref.width, ref.height) } ?? ""
        return rows.row([
            String(number), TextTable.clip(item.title, 44), TextTable.clip(item.creator?.name ?? "", 20), size,
            item.id.description,
        ])
    }
}
