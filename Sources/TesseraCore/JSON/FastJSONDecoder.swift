import Foundation

/// Decodes `Decodable` values as `JSONDecoder` (default options) does, several times faster: the document
/// is scanned once into a `JSONTape`, and objects are searched key by key in place instead of being turned
/// into a dictionary of new strings each.
///
/// The result is always `JSONDecoder`'s: whatever this decoder refuses or is unsure of (see `JSONTape`,
/// `JSONTape.Unsure`), and every error, is handed to `JSONDecoder`, so errors carry its messages and paths.
/// Source answers (docs/search.md, "Speed") and gallery items go through here.
public enum FastJSONDecoder {
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let fast: T? = data.withUnsafeBytes { raw in
            guard let tape = try? JSONTape(raw.bindMemory(to: UInt8.self)) else { return nil }
            let state = TapeState(tape)
            let value = try? TapeDecoder(state: state, index: 0).decode(type)
            return state.unsure ? nil : value
        }
        if let fast { return fast }
        return try JSONDecoder().decode(type, from: data)
    }
}

/// The tape one decoding reads, and whether it met something only `JSONDecoder` may judge.
final class TapeState {
    let tape: JSONTape
    var unsure = false

    init(_ tape: JSONTape) {
        self.tape = tape
    }

    /// Runs a read of the tape, noting when it was unsure (the error still ends that read).
    func read<T>(_ body: (JSONTape) throws -> T) throws -> T {
        do {
            return try body(tape)
        } catch let error as JSONTape.Unsure {
            unsure = true
            throw error
        }
    }
}

/// A `Decoder` at one entry of the tape.
struct TapeDecoder: Decoder {
    let state: TapeState
    let index: Int

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let entry = state.tape.entries[index]
        guard entry.kind == .object else { throw state.tape.mismatch([String: Any].self, entry) }
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(state: state, object: index))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let entry = state.tape.entries[index]
        guard entry.kind == .array else { throw state.tape.mismatch([Any].self, entry) }
        return TapeUnkeyedContainer(state: state, array: index)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TapeSingleValue(decoder: self)
    }

    /// The value here as `T`: the types `JSONDecoder` reads by hand directly, others through their
    /// `init(from:)`; the types it treats specially, and this decoder does not copy, are left to it.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self { return try decode(String.self) as! T }
        if T.self == Int.self { return try decode(Int.self) as! T }
        if T.self == Double.self { return try decode(Double.self) as! T }
        if T.self == Bool.self { return try decode(Bool.self) as! T }
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self
            || T.self == Float.self
        {
            state.unsure = true
            throw JSONTape.Unsure()
        }
        return try T(from: self)
    }

    func decode(_ type: String.Type) throws -> String { try state.read { try $0.string(at: index) } }
    func decode(_ type: Int.Type) throws -> Int { try state.read { try $0.integer(at: index, as: Int.self) } }
    func decode(_ type: Double.Type) throws -> Double { try state.read { try $0.double(at: index) } }
    func decode(_ type: Bool.Type) throws -> Bool { try state.read { try $0.bool(at: index) } }

    var isNull: Bool { state.tape.entries[index].kind == .null }
}

struct TapeSingleValue: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { decoder.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decode(type) }
    func decode(_ type: String.Type) throws -> String { try decoder.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try decoder.state.read { try $0.integer(at: decoder.index, as: type) }
    }
}
