import Foundation

/// The markup pages share, written once. A page names a part on a line of its own,
/// `<!-- include detail/detail.html back="Back to results" app -->`, and gets the part's lines in its place:
/// `{{back}}` filled with the value the line gives, and a line whose whole content is a section,
/// `{{#app}}…{{/app}}`, kept when the line names `app` and left out otherwise. A part's opening comment says
/// what it is and stays out of the page. Parts are put in once, at start; a part that is missing, a value it
/// wants that the page does not give, or one the page gives that it does not use stops the start, naming the
/// page. The parts themselves are not served.
extension WebAssets {
    /// The files that some page includes.
    static func parts(of contents: [(path: String, data: Data)]) -> Set<String> {
        var parts: Set<String> = []
        for (path, data) in contents where path.hasSuffix(".html") {
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                if let include = Include(line) { parts.insert(include.path) }
            }
        }
        return parts
    }

    /// `page`, the file at `path`, with each include line replaced by its part, filled in.
    static func assemble(_ page: Data, at path: String, parts: [String: Data]) throws -> Data {
        var lines: [String] = []
        for line in String(decoding: page, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            guard let include = Include(line) else {
                lines.append(String(line))
                continue
            }
            guard let part = parts[include.path] else {
                throw WebAssetsError.page(path: path, reason: "it includes \(include.path), which is not there")
            }
            lines += try include.fill(String(decoding: part, as: UTF8.self), into: path)
        }
        return Data(lines.joined(separator: "\n").utf8)
    }

    /// One `<!-- include PATH name="value" flag -->` line: the part, its values and the sections it keeps.
    struct Include {
        let path: String
        let values: [String: String]
        let flags: Set<String>

        init?(_ line: Substring) {
            guard let match = line.wholeMatch(of: /\s*<!-- include (\S+)((?: [a-z-]+(?:="[^"]*")?)*) -->\s*/)
            else { return nil }
            path = String(match.output.1)
            var values: [String: String] = [:]
            var flags: Set<String> = []
            for argument in match.output.2.matches(of: /([a-z-]+)(?:="([^"]*)")?/) {
                if let value = argument.output.2 {
                    values[String(argument.output.1)] = String(value)
                } else {
                    flags.insert(String(argument.output.1))
                }
            }
            self.values = values
            self.flags = flags
        }

        /// The part's lines for the page at `page`, filled in.
        func fill(_ part: String, into page: String) throws -> [String] {
            var lines = part.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.last == "" { lines.removeLast() }
            if lines.first?.hasPrefix("<!--") == true, let end = lines.firstIndex(where: { $0.contains("-->") }) {
                lines.removeFirst(end + 1)
            }
            var used: Set<String> = []
            var filled: [String] = []
            for var line in lines.map(String.init) {
                guard Include(Substring(line)) == nil else {
                    throw WebAssetsError.page(path: page, reason: "\(path) includes another part, which parts do not")
                }
                if let section = line.wholeMatch(of: /(\s*)\{\{#([a-z-]+)\}\}(.*)\{\{\/([a-z-]+)\}\}/),
                    section.output.2 == section.output.4
                {
                    let name = String(section.output.2)
                    used.insert(name)
                    guard flags.contains(name) else { continue }
                    line = String(section.output.1 + section.output.3)
                }
                line = try line.replacing(/\{\{([a-z-]+)\}\}/) { match in
                    let name = String(match.output.1)
                    guard let value = values[name] else {
                        throw WebAssetsError.page(path: page, reason: "\(path) wants \(name), which it does not give")
                    }
                    used.insert(name)
                    return value
                }
                guard !line.contains("{{") else {
                    throw WebAssetsError.page(path: page, reason: "\(path) has a line it cannot fill: \(line)")
                }
                filled.append(line)
            }
            let unused = Set(values.keys).union(flags).subtracting(used)
            guard unused.isEmpty else {
                let names = unused.sorted().joined(separator: ", ")
                throw WebAssetsError.page(path: page, reason: "it gives \(path) \(names), which the part does not use")
            }
            return filled
        }
    }
}
