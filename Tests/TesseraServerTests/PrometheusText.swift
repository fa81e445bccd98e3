import Foundation
import Testing

/// A scrape of `/metrics`, parsed as Prometheus' text exposition format (version 0.0.4). Parsing fails on
/// any line the format does not allow, so the tests check the syntax and read exact values at once.
struct PrometheusText {
    struct FormatError: Error, CustomStringConvertible {
        let line: String
        let reason: String
        var description: String { "\(reason): \(line)" }
    }

    /// Values by series: the sample name and its labels, sorted (`name{a="1",b="2"}`).
    private(set) var values: [String: Double] = [:]
    /// The `# TYPE` of each family.
    private(set) var types: [String: String] = [:]

    init(_ text: String) throws {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                try comment(line)
            } else {
                try sample(line)
            }
        }
    }

    /// The value of a series, or 0 when the series was never made (a counter nothing has moved yet).
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        values[Self.key(name, labels)] ?? 0
    }

    /// How far a series moved since `earlier`.
    func delta(_ earlier: PrometheusText, _ name: String, _ labels: [String: String] = [:]) -> Double {
        value(name, labels) - earlier.value(name, labels)
    }

    static func key(_ name: String, _ labels: [String: String]) -> String {
        guard !labels.isEmpty else { return name }
        let pairs = labels.sorted { $0.key < $1.key }.map { "\($0)=\"\($1)\"" }
        return name + "{" + pairs.joined(separator: ",") + "}"
    }

    // MARK: - Lines

    private static let types = ["counter", "gauge", "histogram", "summary", "untyped"]

    private mutating func comment(_ line: String) throws {
        let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts[0] == "#", parts[1] == "TYPE" || parts[1] == "HELP" else {
            return  // Any other comment is allowed and ignored.
        }
        guard Self.isMetricName(parts[2]) else { throw FormatError(line: line, reason: "bad metric name") }
        if parts[1] == "TYPE" {
            guard parts.count == 4, Self.types.contains(parts[3]) else {
                throw FormatError(line: line, reason: "bad type")
            }
            guard types[parts[2]] == nil else { throw FormatError(line: line, reason: "second TYPE line") }
            guard !values.keys.contains(where: { Self.family(ofSample: $0, types: [parts[2]: parts[3]]) != nil })
            else { throw FormatError(line: line, reason: "TYPE after the family's samples") }
            types[parts[2]] = parts[3]
        }
    }

    private mutating func sample(_ line: String) throws {
        var rest = Substring(line)
        let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" })
        guard Self.isMetricName(name) else { throw FormatError(line: line, reason: "bad sample name") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                guard Self.isLabelName(label), rest.dropFirst(label.count).hasPrefix("=\"") else {
                    throw FormatError(line: line, reason: "bad label")
                }
                rest = rest.dropFirst(label.count + 2)
                var value = ""
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\" {
                        switch rest.first {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: throw FormatError(line: line, reason: "bad escape in a label value")
                        }
                        rest = rest.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                guard rest.first == "\"", labels.updateValue(value, forKey: label) == nil else {
                    throw FormatError(line: line, reason: "unterminated or repeated label")
                }
                rest = rest.dropFirst()
                if rest.first == "," {
                    rest = rest.dropFirst()
                } else if rest.first != "}" {
                    throw FormatError(line: line, reason: "expected , or }")
                }
            }
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: " ", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), fields[0].isEmpty, let value = Self.number(fields[1]),
            fields.count == 2 || Int(fields[2]) != nil
        else { throw FormatError(line: line, reason: "bad value") }
        guard Self.family(ofSample: name, types: types) != nil else {
            throw FormatError(line: line, reason: "sample without a TYPE line before it")
        }
        let key = Self.key(name, labels)
        guard values.updateValue(value, forKey: key) == nil else { throw FormatError(line: line, reason: "repeated") }
    }

    /// The family a sample belongs to: its own name, or a histogram's for `_bucket`, `_sum` and `_count`.
    private static func family(ofSample name: String, types: [String: String]) -> String? {
        let name = name.split(separator: "{").first.map(String.init) ?? name
        if types[name] != nil { return name }
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let family = String(name.dropLast(suffix.count))
            if types[family] == "histogram" || types[family] == "summary" { return family }
        }
        return nil
    }

    private static func number(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }

    private static func isMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" || first == ":" else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == ":" }
    }

    private static func isLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

@Suite("Prometheus text parser")
struct PrometheusTextTests {
    @Test func readsSamplesWithEscapedLabels() throws {
        let text = """
            # HELP a_total Things.
            # TYPE a_total counter
            a_total{path="/x",note="say \\"hi\\"\\n"} 3
            # TYPE b_seconds histogram
            b_seconds_bucket{le="+Inf"} 2
            b_seconds_sum 0.5
            b_seconds_count 2

            """
        let parsed = try PrometheusText(text)
        #expect(parsed.value("a_total", ["path": "/x", "note": "say \"hi\"\n"]) == 3)
        #expect(parsed.value("b_seconds_count") == 2)
        #expect(parsed.value("b_seconds_bucket", ["le": "+Inf"]) == 2)
    }

    @Test(arguments: [
        "a_total 1",  // no TYPE before it
        "# TYPE a_total counter\na_total{x=\"1\" 1",
        "# TYPE a_total counter\na_total{1x=\"1\"} 1",
        "# TYPE a_total counter\na_total one",
        "# TYPE a_total counter\n# TYPE a_total counter",
        "# TYPE a_total counter\na_total 1\na_total 2",
        "# TYPE a_total countr",
    ])
    func refusesWhatTheFormatDoesNotAllow(text: String) {
        #expect(throws: PrometheusText.FormatError.self) { try PrometheusText(text) }
    }
}
