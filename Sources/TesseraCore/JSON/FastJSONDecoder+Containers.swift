/// The containers of `TapeDecoder`. A key is found by walking the object's keys in document order, so
/// with a repeated key the first wins, as in `JSONDecoder`.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: TapeState
    let object: Int

    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        var keys: [Key] = []
        forEachPair { key, _ in
            if let key = Key(stringValue: state.tape.text(state.tape.entries[key])) { keys.append(key) }
            return false
        }
        return keys
    }

    /// Calls `body` with each pair's key and value indices until it returns true.
    private func forEachPair(_ body: (Int, Int) -> Bool) {
        let entries = state.tape.entries
        var key = object + 1
        for _ in 0..<entries[object].count {
            let value = key + 1
            if body(key, value) { return }
            key = Int(entries[value].next)
        }
    }

    /// The index of `key`'s value, nil when absent.
    private func find(_ key: Key) -> Int? {
        let tape = state.tape
        var name = key.stringValue
        return name.withUTF8 { name in
            let entries = tape.entries
            var keyIndex = object + 1
            for _ in 0..<entries[object].count {
                if tape.string(entries[keyIndex], equals: name) { return keyIndex + 1 }
                keyIndex = Int(entries[keyIndex + 1].next)
            }
            return nil
        }
    }

    private func value(_ key: Key) throws -> Int {
        guard let index = find(key) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: [], debugDescription: "No such key."))
        }
        return index
    }

    private func decoder(_ key: Key) throws -> TapeDecoder {
        TapeDecoder(state: state, index: try value(key))
    }

    /// The value when present and not null, as `decodeIfPresent` reads it.
    private func present(_ key: Key) -> TapeDecoder? {
        guard let index = find(key), state.tape.entries[index].kind != .null else { return nil }
        return TapeDecoder(state: state, index: index)
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try decoder(key).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try single(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try single(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try single(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try single(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try single(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try single(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try single(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try single(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try single(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(key).decode(type) }

    private func single(_ key: Key) throws -> TapeSingleValue { TapeSingleValue(decoder: try decoder(key)) }

    // One search for the key instead of the three (`contains`, `decodeNil`, `decode`) the defaults make.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key)?.decode(type) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key)?.decode(type) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key)?.decode(type) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key)?.decode(type) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key)?.decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(key).unkeyedContainer()
    }

    /// Not used by Tessera's types; `JSONDecoder` gives a missing key a null decoder, left to it.
    func superDecoder() throws -> any Decoder { throw unsure() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw unsure() }

    private func unsure() -> JSONTape.Unsure {
        state.unsure = true
        return JSONTape.Unsure()
    }
}

struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let state: TapeState
    let array: Int
    private(set) var currentIndex = 0
    /// The entry of the element at `currentIndex`.
    private var next: Int

    init(state: TapeState, array: Int) {
        self.state = state
        self.array = array
        self.next = array + 1
    }

    var codingPath: [any CodingKey] { [] }
    var count: Int? { Int(state.tape.entries[array].count) }
    var isAtEnd: Bool { currentIndex >= count! }

    /// Decodes the current element with `body`, moving on only when it succeeds (as `JSONDecoder` does).
    private mutating func element<T>(_ type: Any.Type, _ body: (TapeDecoder) throws -> T) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: [], debugDescription: "Unkeyed container is at end."))
        }
        let value = try body(TapeDecoder(state: state, index: next))
        next = Int(state.tape.entries[next].next)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any?.self, DecodingError.Context(codingPath: [], debugDescription: "Unkeyed container is at end."))
        }
        guard state.tape.entries[next].kind == .null else { return false }
        next += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try element(type) { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try element(type) { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try element(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try element(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        try element(type) { try TapeSingleValue(decoder: $0).decode(type) }
    }
    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        try element(type) { try TapeSingleValue(decoder: $0).decode(type) }
    }
    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        try element(type) { try TapeSingleValue(decoder: $0).decode(type) }
    }
    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        try element(type) { try TapeSingleValue(decoder: $0).decode(type) }
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt {
        try element(type) { try TapeSingleValue(decoder: $0).decode(type) }
    }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        try element(type) { try TapeSingleValue(decoder: $0).decode(type) }
    }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        try element(type) { try TapeSingleValue(decoder: $0).decode(type) }
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        try element(type) { try TapeSingleValue(decoder: $0).decode(type) }
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        try element(type) { try TapeSingleValue(decoder: $0).decode(type) }
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try element(type) { try $0.decode(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try element(type) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try element([Any].self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        state.unsure = true
        throw JSONTape.Unsure()
    }
}
