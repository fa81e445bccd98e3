import Foundation
import TesseraGalleries

/// Galleries as a plain-text table for people, and the small formats the gallery commands print.
enum GalleryTable {
    static func render(_ galleries: [Gallery], deleted: Bool) -> String {
        guard !galleries.isEmpty else {
            return deleted
                ? "Recently deleted is empty.\n" : "No galleries yet; make one with: tessera gallery create NAME\n"
        }
        let names = galleries.map { clip($0.name, 40) }
        let nameWidth = max(4, names.map(\.count).max() ?? 0)
        func row(_ name: String, _ items: String, _ time: String, _ id: String) -> String {
            [pad(name, nameWidth), pad(items, 5, right: true), pad(time, 16), id].joined(separator: "  ")
        }
        var lines = [row("NAME", "ITEMS", deleted ? "DELETED" : "UPDATED", "ID")]
        for (gallery, name) in zip(galleries, names) {
            let when = deleted ? gallery.deletedAt ?? gallery.updatedAt : gallery.updatedAt
            lines.append(row(name, String(gallery.itemCount), time(when), gallery.id.rawValue))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An API time (ISO 8601, UTC) in the local time zone, to the minute.
    static func time(_ iso8601: String) -> String {
        guard let date = try? Date(iso8601, strategy: .iso8601) else { return iso8601 }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    static func quoted(_ text: String) -> String { "\"\(clip(text, 80))\"" }

    static func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }

    static func bytes(_ count: Int) -> String {
        switch count {
        case ..<1024: "\(count) bytes"
        case ..<1_048_576: "\(Int((Double(count) / 1024).rounded())) KB"
        default: String(format: "%.1f MB", Double(count) / 1_048_576)
        }
    }

    /// Cuts to `width` characters with an ellipsis; control characters (a name may hold anything) become spaces.
    static func clip(_ text: String, _ width: Int) -> String {
        let clean = String(text.map { $0.isNewline || $0.asciiValue.map { $0 < 32 || $0 == 127 } == true ? " " : $0 })
        return clean.count <= width ? clean : String(clean.prefix(width - 1)) + "…"
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
