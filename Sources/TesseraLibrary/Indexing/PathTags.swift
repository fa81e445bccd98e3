import TesseraCore

/// Tags and a fallback title from where a photo lives: `Holidays/Lisbon 2023/tram_at_night_0042.jpg`.
enum PathTags {
    /// Names cameras and phones give files; words, but not ones anybody searches for.
    static let cameraWords: Set<String> = [
        "img", "dsc", "dscn", "dscf", "dcim", "pxl", "mvimg", "pano", "burst", "photo", "image", "edited",
        "jpg", "jpeg", "png", "heic", "webp", "gopr", "dji", "screenshot", "scan", "copy",
    ]
    /// Short words that say nothing about a photo.
    static let stopWords: Set<String> = ["the", "and", "with", "for", "from", "into", "this", "that", "its", "our"]

    /// Folder names below the root (each one tag, lower-cased), then the file name's words.
    static func tags(forPath path: String) -> [String] {
        let components = path.split(separator: "/")
        let folders = components.dropLast().map { PlainText.collapsingWhitespace(String($0)) }
        return Tags.normalize(folders + fileWords(components.last.map(String.init) ?? ""))
    }

    /// The words of a file name without its extension: split on everything but letters, lower-cased,
    /// without short words, camera names and the like.
    static func fileWords(_ fileName: String) -> [String] {
        var words: [String] = []
        var current = ""
        func finish() {
            let word = current.lowercased()
            current = ""
            guard word.count >= 3, !cameraWords.contains(word), !stopWords.contains(word) else { return }
            words.append(word)
        }
        for character in stem(fileName) {
            if character.isLetter {
                current.append(character)
            } else {
                finish()
            }
        }
        finish()
        return words
    }

    /// `espresso-cup_on.a wooden table.jpg` → `Espresso cup on a wooden table`.
    static func readableTitle(fileName: String) -> String {
        let spaced = String(stem(fileName).map { $0 == "_" || $0 == "-" || $0 == "." || $0 == "+" ? " " : $0 })
        let title = PlainText.collapsingWhitespace(spaced)
        guard let first = title.first else { return fileName }
        return first.uppercased() + title.dropFirst()
    }

    /// The file name without its last extension (a leading dot is not one).
    private static func stem(_ fileName: String) -> Substring {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName[...] }
        return fileName[..<dot]
    }
}
