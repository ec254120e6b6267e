/// Adds the members of an object: each value is written at the end of the sink at once, and
/// recorded as a member for the object to sort when it completes.
struct PlainKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// The encoder of the object.
    let encoder: PlainValueEncoder

    /// The keys and indices that lead to the object.
    var codingPath: [any CodingKey] { encoder.codingPath }

    /// Whether a member can be added now; when not, the encoding has failed.
    private var canAdd: Bool {
        guard encoder.shape == .object, encoder.isOpen else {
            encoder.sink.fail()
            return false
        }
        return true
    }

    /// Adds the member `key` with a scalar `write` appends.
    private func add(_ key: Key, _ write: (inout [UInt8]) throws(PlainJSONEncoder.Unsupported) -> Void)
        throws(PlainJSONEncoder.Unsupported)
    {
        let sink = encoder.sink
        guard canAdd else { throw PlainJSONEncoder.Unsupported() }
        let start = sink.bytes.count
        do {
            try write(&sink.bytes)
        } catch {
            throw sink.fail()
        }
        sink.members.append(PlainMember(key: key.stringValue, start: start, end: sink.bytes.count, nested: nil))
    }

    /// Adds the member `key` with an integer.
    private func add(_ key: Key, integer: some BinaryInteger) throws(PlainJSONEncoder.Unsupported) {
        try add(key) { JSONDigits.append(integer, to: &$0) }
    }

    mutating func encodeNil(forKey key: Key) throws { try add(key) { $0.append(contentsOf: "null".utf8) } }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try add(key) { $0.append(contentsOf: (value ? "true" : "false").utf8) }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try add(key) { bytes throws(PlainJSONEncoder.Unsupported) in try PlainJSONString.append(value, to: &bytes) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws { throw encoder.sink.fail() }
    mutating func encode(_ value: Float, forKey key: Key) throws { throw encoder.sink.fail() }
    mutating func encode(_ value: Int, forKey key: Key) throws { try add(key, integer: value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try add(key, integer: value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try add(key, integer: value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try add(key, integer: value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try add(key, integer: value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try add(key, integer: value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try add(key, integer: value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try add(key, integer: value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try add(key, integer: value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try add(key, integer: value) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let sink = encoder.sink
        guard canAdd else { throw PlainJSONEncoder.Unsupported() }
        let start = sink.bytes.count
        if try !PlainScalar.append(value, to: &sink.bytes, failing: sink) {
            let child = encoder.child(at: key)
            try child.encodeComposite(value)
            child.finish()
            guard !sink.failed else { throw PlainJSONEncoder.Unsupported() }
        }
        sink.members.append(PlainMember(key: key.stringValue, start: start, end: sink.bytes.count, nested: nil))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        guard canAdd else { return KeyedEncodingContainer(PlainKeyedEncodingContainer<NestedKey>(encoder: encoder)) }
        let nested = encoder.nested(at: key, shape: .object)
        encoder.sink.members.append(PlainMember(key: key.stringValue, start: 0, end: 0, nested: nested))
        return KeyedEncodingContainer(PlainKeyedEncodingContainer<NestedKey>(encoder: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        guard canAdd else { return PlainUnkeyedEncodingContainer(encoder: encoder) }
        let nested = encoder.nested(at: key, shape: .array)
        encoder.sink.members.append(PlainMember(key: key.stringValue, start: 0, end: 0, nested: nested))
        return PlainUnkeyedEncodingContainer(encoder: nested)
    }

    /// Unsupported: fails the encoding, and what is written to the encoder returned is lost.
    mutating func superEncoder() -> any Encoder {
        encoder.sink.fail()
        return encoder
    }

    /// Unsupported, as `superEncoder()`.
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder()
    }
}

/// Appends the elements of an array, each written at the end of the sink at once.
struct PlainUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    /// The encoder of the array.
    let encoder: PlainValueEncoder

    /// The keys and indices that lead to the array.
    var codingPath: [any CodingKey] { encoder.codingPath }

    /// Elements so far.
    var count: Int { encoder.count }

    /// Whether an element can be appended now; when not, the encoding has failed.
    private var canAdd: Bool {
        guard encoder.shape == .array, encoder.isOpen else {
            encoder.sink.fail()
            return false
        }
        return true
    }

    /// Appends a scalar `write` appends.
    private func add(_ write: (inout [UInt8]) throws(PlainJSONEncoder.Unsupported) -> Void) throws(PlainJSONEncoder
        .Unsupported)
    {
        guard canAdd else { throw PlainJSONEncoder.Unsupported() }
        encoder.beginElement()
        do {
            try write(&encoder.sink.bytes)
        } catch {
            throw encoder.sink.fail()
        }
    }

    /// Appends an integer.
    private func add(integer: some BinaryInteger) throws(PlainJSONEncoder.Unsupported) {
        try add { JSONDigits.append(integer, to: &$0) }
    }

    mutating func encodeNil() throws { try add { $0.append(contentsOf: "null".utf8) } }
    mutating func encode(_ value: Bool) throws { try add { $0.append(contentsOf: (value ? "true" : "false").utf8) } }
    mutating func encode(_ value: String) throws {
        try add { bytes throws(PlainJSONEncoder.Unsupported) in try PlainJSONString.append(value, to: &bytes) }
    }
    mutating func encode(_ value: Double) throws { throw encoder.sink.fail() }
    mutating func encode(_ value: Float) throws { throw encoder.sink.fail() }
    mutating func encode(_ value: Int) throws { try add(integer: value) }
    mutating func encode(_ value: Int8) throws { try add(integer: value) }
    mutating func encode(_ value: Int16) throws { try add(integer: value) }
    mutating func encode(_ value: Int32) throws { try add(integer: value) }
    mutating func encode(_ value: Int64) throws { try add(integer: value) }
    mutating func encode(_ value: UInt) throws { try add(integer: value) }
    mutating func encode(_ value: UInt8) throws { try add(integer: value) }
    mutating func encode(_ value: UInt16) throws { try add(integer: value) }
    mutating func encode(_ value: UInt32) throws { try add(integer: value) }
    mutating func encode(_ value: UInt64) throws { try add(integer: value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let sink = encoder.sink
        guard canAdd else { throw PlainJSONEncoder.Unsupported() }
        encoder.beginElement()
        guard try !PlainScalar.append(value, to: &sink.bytes, failing: sink) else { return }
        let child = encoder.child(at: PlainIndexKey(intValue: encoder.count - 1))
        try child.encodeComposite(value)
        child.finish()
        guard !sink.failed else { throw PlainJSONEncoder.Unsupported() }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        guard canAdd else { return KeyedEncodingContainer(PlainKeyedEncodingContainer<NestedKey>(encoder: encoder)) }
        return KeyedEncodingContainer(
            PlainKeyedEncodingContainer<NestedKey>(encoder: encoder.nestedElement(shape: .object)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        guard canAdd else { return self }
        return PlainUnkeyedEncodingContainer(encoder: encoder.nestedElement(shape: .array))
    }

    /// Unsupported: fails the encoding, and what is written to the encoder returned is lost.
    mutating func superEncoder() -> any Encoder {
        encoder.sink.fail()
        return encoder
    }
}

/// Sets a value on its own (an enum's raw value, a wrapper type).
struct PlainSingleValueEncodingContainer: SingleValueEncodingContainer {
    /// The encoder of the value.
    let encoder: PlainValueEncoder

    /// The keys and indices that lead to the value.
    var codingPath: [any CodingKey] { encoder.codingPath }

    /// Sets an integer.
    private func set(integer: some BinaryInteger) throws(PlainJSONEncoder.Unsupported) {
        try encoder.writeScalar { JSONDigits.append(integer, to: &$0) }
    }

    mutating func encodeNil() throws { try encoder.writeScalar { $0.append(contentsOf: "null".utf8) } }
    mutating func encode(_ value: Bool) throws {
        try encoder.writeScalar { $0.append(contentsOf: (value ? "true" : "false").utf8) }
    }
    mutating func encode(_ value: String) throws {
        try encoder.writeScalar { bytes throws(PlainJSONEncoder.Unsupported) in
            try PlainJSONString.append(value, to: &bytes)
        }
    }
    mutating func encode(_ value: Double) throws { throw encoder.sink.fail() }
    mutating func encode(_ value: Float) throws { throw encoder.sink.fail() }
    mutating func encode(_ value: Int) throws { try set(integer: value) }
    mutating func encode(_ value: Int8) throws { try set(integer: value) }
    mutating func encode(_ value: Int16) throws { try set(integer: value) }
    mutating func encode(_ value: Int32) throws { try set(integer: value) }
    mutating func encode(_ value: Int64) throws { try set(integer: value) }
    mutating func encode(_ value: UInt) throws { try set(integer: value) }
    mutating func encode(_ value: UInt8) throws { try set(integer: value) }
    mutating func encode(_ value: UInt16) throws { try set(integer: value) }
    mutating func encode(_ value: UInt32) throws { try set(integer: value) }
    mutating func encode(_ value: UInt64) throws { try set(integer: value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encode(value)
    }
}
