/// Rows of plain-text columns for a terminal: each cell padded to its column's width, columns two spaces apart.
///
/// Widths count characters, not terminal cells: a wide character (CJK, most emoji) takes two cells, so a
/// row holding one comes out a little wider. Cells are not cleaned or clipped here; text from outside goes
/// through `TextTable.clip` first.
public struct TextTable: Sendable {
    public enum Alignment: Sendable {
        case left, right
    }

    /// A column: the width its cells are padded to (none for a last column left ragged) and their alignment.
    public struct Column: Sendable {
        public var width: Int?
        public var alignment: Alignment

        public init(width: Int?, alignment: Alignment = .left) {
            self.width = width
            self.alignment = alignment
        }

        /// Text, padded on the right to `width` (or not at all).
        public static func left(_ width: Int?) -> Column { Column(width: width) }
        /// Numbers, padded on the left to `width`.
        public static func right(_ width: Int) -> Column { Column(width: width, alignment: .right) }
    }

    public var columns: [Column]
    /// Written before every row.
    public var indent: String

    public init(_ columns: [Column], indent: String = "") {
        self.columns = columns
        self.indent = indent
    }

    /// One line: `cells[i]` padded as `columns[i]` says; cells past the last column are left as they are.
    public func row(_ cells: [String]) -> String {
        let padded = cells.enumerated().map { index, cell in
            guard index < columns.count, let width = columns[index].width else { return cell }
            return Self.pad(cell, width, columns[index].alignment)
        }
        return indent + padded.joined(separator: "  ")
    }

    /// `text` with spaces added on the side `alignment` leaves open, up to `width` characters; longer text
    /// is left whole.
    public static func pad(_ text: String, _ width: Int, _ alignment: Alignment = .left) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return alignment == .left ? text + padding : padding + text
    }

    /// `text` on one line of at most `width` characters, cut with an ellipsis.
    ///
    /// Text from sources and from people (titles, gallery names) may hold anything: line breaks and control
    /// characters (C0, DEL and C1, which include ESC and CSI, the starts of terminal escape sequences) become
    /// spaces, so a value can neither break the table nor move the cursor or recolour the terminal.
    public static func clip(_ text: String, _ width: Int) -> String {
        let clean = String(text.map { isControl($0) ? " " : $0 })
        guard clean.count > width else { return clean }
        return width > 0 ? String(clean.prefix(width - 1)) + "…" : ""
    }

    /// Unicode breaks graphemes around every control character, so one never hides inside a longer one.
    private static func isControl(_ character: Character) -> Bool {
        character.isNewline || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
