import Foundation

/// A user's words turned into an FTS5 MATCH expression that can never be a syntax error.
///
/// Words are the runs of letters and digits (what the `unicode61` tokenizer calls tokens), so `falcon-9`
/// is two words. Each becomes a quoted prefix term, `"falcon"* "9"*`, and FTS5 ANDs terms side by side.
/// Quoting makes `NEAR`, `AND`, `OR`, `NOT` and column names plain words; quotes, `*`, `-`, `^`, `:`, `+`
/// and parentheses never reach FTS5 at all, as they separate words.
public struct SearchQuery: Sendable, Hashable {
    /// FTS5 evaluates every term; more than this many adds work without narrowing anything people would notice.
    public static let maxWords = 16

    public let words: [String]

    public init(_ text: String) {
        var seen = Set<String>()
        self.words = Array(Self.words(in: text).filter { seen.insert($0.lowercased()).inserted }.prefix(Self.maxWords))
    }

    /// The words of `text` in order, repeats included: runs of letters and digits, as FTS5's tokenizer sees them.
    public static func words(in text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `word` as both engines compare it: lowercase, diacritics removed ("Crème" is "creme"), like FTS5's
    /// `remove_diacritics 2`. PostgreSQL's index is built from words folded so, with no dictionary of its own.
    public static func folded(_ word: String) -> String {
        word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    /// Nothing to search for: the text had no letters or digits.
    public var isEmpty: Bool { words.isEmpty }

    /// `"word"* "other"*`; `nil` when there is no word.
    public var matchExpression: String? {
        guard !words.isEmpty else { return nil }
        // Quotes separate words, so none should be left; doubling them anyway keeps that true whatever
        // a grapheme cluster holds.
        return words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " ")
    }
}
