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

    private static func row(number: Int, _ item: Item) -> String {
        let size = item.full.flatMap { ref in Format.dimensions(ref.width, ref.height) } ?? ""
        let columns = [
            pad(String(number), 4, right: true),
            pad(clip(item.title, 44), 44),
            pad(clip(item.creator?.name ?? "", 20), 20),
            pad(size, 13),
            item.id.description,
        ]
        return "  " + columns.joined(separator: "  ")
    }

    /// Cuts to `width` characters with an ellipsis; control characters from sources become spaces.
    private static func clip(_ text: String, _ width: Int) -> String {
        let clean = String(text.map { $0.isNewline || $0.asciiValue.map { $0 < 32 } == true ? " " : $0 })
        return clean.count <= width ? clean : String(clean.prefix(width - 1)) + "…"
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
