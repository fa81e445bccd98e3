import Foundation
import TesseraCore
import TesseraGalleries

/// Galleries as a plain-text table for people, and the small formats the gallery commands print.
enum GalleryTable {
    static func render(_ galleries: [Gallery], deleted: Bool) -> String {
        guard !galleries.isEmpty else {
            return deleted
                ? "Recently deleted is empty.\n" : "No galleries yet; make one with: tessera gallery create NAME\n"
        }
        let names = galleries.map { TextTable.clip($0.name, 40) }
        let table = TextTable([.left(max(4, names.map(\.count).max() ?? 0)), .right(5), .left(16), .left(nil)])
        var lines = [table.row(["NAME", "ITEMS", deleted ? "DELETED" : "UPDATED", "ID"])]
        for (gallery, name) in zip(galleries, names) {
            let when = deleted ? gallery.deletedAt ?? gallery.updatedAt : gallery.updatedAt
            lines.append(table.row([name, String(gallery.itemCount), time(when), gallery.id.rawValue]))
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

    static func quoted(_ text: String) -> String { "\"\(TextTable.clip(text, 80))\"" }

    static func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }

    /// In decimal units (1 KB = 1000 bytes), as every size Tessera shows, metadata included.
    static func bytes(_ count: Int) -> String { Format.bytes(count) }
}
