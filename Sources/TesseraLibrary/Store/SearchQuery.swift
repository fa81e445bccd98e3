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
        var seen = Set<String>()
        self.words = Array(words.filter { seen.insert($0.lowercased()).inserted }.prefix(Self.maxWords))
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
