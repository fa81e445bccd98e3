// `FastJSONDecoder` against Foundation's `JSONDecoder` (TesseraCore/JSON): the same bytes decoded as each of a
// few types the server reads must give the same answer from both, a value equal to the other's or an error.
// Input: a JSON document (or anything else).
import Foundation
import TesseraCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let json = Data(bytes(data, size))
    compare(Item.self, json)
    compare(AddItemBody.self, json)
    compare(Probe.self, json)
    compare([String: Int].self, json)
    compare([Int8?].self, json)
    compare(Scalars.self, json)
    if let item = try? FastJSONDecoder.decode(Item.self, from: json) { checkFilters(item) }
    return 0
}

func compare<T: Decodable & Equatable>(_ type: T.Type, _ json: Data) {
    let fast = Result { try FastJSONDecoder.decode(type, from: json) }
    let foundation = Result { try JSONDecoder().decode(type, from: json) }
    switch (fast, foundation) {
    case (.success(let a), .success(let b)):
        expect(a == b, "\(type): FastJSONDecoder read \(a), JSONDecoder \(b)")
    case (.failure, .failure):
        break
    case (.success(let a), .failure(let error)):
        expect(false, "\(type): FastJSONDecoder read \(a), JSONDecoder failed: \(error)")
    case (.failure(let error), .success(let b)):
        expect(false, "\(type): JSONDecoder read \(b), FastJSONDecoder failed: \(error)")
    }
}

/// Tessera's own checks of an item read from outside (a service's sizes, an add's body) end in an answer.
func checkFilters(_ item: Item) {
    let filters = SearchFilters(
        license: .init(commercial: true), orientation: .square, size: .large, color: .red, type: .photo)
    for name in SearchFilters.Name.allCases { _ = filters.check(name, item) }
}

/// FairUse's look at an add's body: one key of a large object.
struct Probe: Decodable, Equatable {
    struct Inner: Decodable, Equatable { let url: String? }
    let url: String?
    let item: Inner?
}

/// A service's answer in miniature: every integer width, a float, nesting, an enum, keys absent or `null`.
struct Scalars: Decodable, Equatable {
    enum Kind: String, Decodable { case photo, video }
    let total: Int?
    let small: Int8?
    let unsigned: UInt64?
    let medium: Int32?
    let ratio: Double?
    let on: Bool?
    let name: String?
    let kind: Kind?
    let tags: [String]?
    let sizes: [[UInt16]]?
    let nested: [String: Scalars]?
}
