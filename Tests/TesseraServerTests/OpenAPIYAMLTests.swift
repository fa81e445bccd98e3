import Foundation
import Testing
import Yams

/// docs/openapi.yaml as YAML reads it, before any OpenAPI tool: an unquoted `, ` inside a flow mapping
/// (`{ description: The text, as shown. }`) silently becomes a second key with no value, which OpenAPI
/// validators accept as an unknown extension of nothing. No value in the document is null, and every
/// `description` (but a property that is itself named so) is text.
@Suite("docs/openapi.yaml as YAML")
struct OpenAPIYAMLTests {
    @Test func noKeyIsLeftWithoutAValueAndEveryDescriptionIsText() throws {
        let text = try String(
            contentsOf: OpenAPIDocumentTests.root.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        let root = try #require(try Yams.compose(yaml: text))
        var problems: [String] = []
        walk(root, path: [], into: &problems)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func theCheckFindsTheMistakeItIsFor() throws {
        let root = try #require(try Yams.compose(yaml: "text: { type: string, description: The credit, as shown. }"))
        var problems: [String] = []
        walk(root, path: [], into: &problems)
        #expect(problems == ["text/as shown.: no value (an unquoted \", \" in a flow mapping?)"])
    }

    private func walk(_ node: Node, path: [String], into problems: inout [String]) {
        switch node {
        case .mapping(let mapping):
            for (key, value) in mapping {
                let name = key.string ?? "?"
                let here = path + [name]
                if case .scalar(let scalar) = value, scalar.style == .plain, value.null != nil {
                    problems.append("\(here.joined(separator: "/")): no value (an unquoted \", \" in a flow mapping?)")
                }
                if name == "description", path.last != "properties", value.string == nil {
                    problems.append("\(here.joined(separator: "/")): a description that is not text")
                }
                walk(value, path: here, into: &problems)
            }
        case .sequence(let sequence):
            for (index, value) in sequence.enumerated() { walk(value, path: path + ["\(index)"], into: &problems) }
        default:
            break
        }
    }
}
