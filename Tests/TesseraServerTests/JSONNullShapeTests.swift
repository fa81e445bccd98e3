import Foundation
import Testing
import Yams

@testable import TesseraServer

/// The add body's shape that the null check follows (`JSONNull.addItemBody`) names the members
/// docs/openapi.yaml names, schema by schema: a member added to the document and not here would let its
/// `null` pass as a field left out.
@Suite("The null check's shape of an added item, held to the document")
struct JSONNullShapeTests {
    private func schemas() throws -> [String: Any] {
        let text = try String(
            contentsOf: OpenAPIDocumentTests.root.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        let components = try #require(document["components"] as? [String: Any])
        return try #require(components["schemas"] as? [String: Any])
    }

    private func properties(_ schemas: [String: Any], _ name: String) throws -> Set<String> {
        let schema = try #require(schemas[name] as? [String: Any], "\(name)")
        return Set(try #require(schema["properties"] as? [String: Any], "\(name)").keys)
    }

    private func members(_ shape: JSONNull.Shape) -> [String: JSONNull.Shape] {
        if case .object(let members) = shape { return members }
        if case .array(let element) = shape { return members(element) }
        return [:]
    }

    @Test func everySchemaTheBodyHoldsIsNamedMemberForMember() throws {
        let schemas = try schemas()
        let body = members(JSONNull.addItemBody)
        #expect(Set(body.keys) == ["item", "url", "index", "allowNearDuplicate"])
        let item = members(try #require(body["item"]))
        #expect(Set(item.keys) == (try properties(schemas, "Item")))
        for (member, schema) in [
            ("creator", "Link"), ("credit", "ItemCredit"), ("license", "License"), ("thumbnail", "Image"),
            ("preview", "Image"),
            ("full", "Image"), ("mediaPreview", "MediaPreview"), ("listing", "StoreListing"),
        ] {
            let shape = members(try #require(item[member], "\(member)"))
            #expect(Set(shape.keys) == (try properties(schemas, schema)), "\(member)")
        }
        let listing = members(try #require(item["listing"]))
        #expect(Set(members(try #require(listing["screenshots"])).keys) == (try properties(schemas, "Image")))
        #expect(Set(members(try #require(item["sizes"])).keys) == (try properties(schemas, "Image")).union(["name"]))
        #expect(Set(members(try #require(item["metadata"])).keys) == ["label", "value"])
    }
}
