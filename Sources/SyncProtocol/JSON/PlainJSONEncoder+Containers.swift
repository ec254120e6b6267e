/// Adds the members of an object.
struct PlainKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// The object being filled.
    let object: PlainObject
    /// The keys and indices that lead to it.
    let codingPath: [any CodingKey]

    /// Adds the member `key` with the value `node`.
    private func add(_ key: Key, _ node: PlainNode) {
        object.members.append((key.stringValue, node))
    }

    /// Adds the member `key` with an encoded scalar.
    private func add(_ key: Key, scalar: [UInt8]) {
        let node = PlainNode()
        node.set(scalar)
        add(key, node)
    }

    mutating func encodeNil(forKey key: Key) throws { add(key, scalar: Array("null".utf8)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        add(key, scalar: Array((value ? "true" : "false").utf8))
    }
    mutating func encode(_ value: String, forKey key: Key) throws { add(key, scalar: try PlainNode.scalar(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { throw PlainJSONEncoder.Unsupported() }
    mutating func encode(_ value: Float, forKey key: Key) throws { throw PlainJSONEncoder.Unsupported() }
    mutating func encode(_ value: Int, forKey key: Key) throws { add(key, scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { add(key, scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { add(key, scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { add(key, scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { add(key, scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { add(key, scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { add(key, scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { add(key, scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { add(key, scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { add(key, scalar: JSONDigits.decimal(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        add(key, try PlainNode.encoding(value, codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let node = PlainNode()
        add(key, node)
        return KeyedEncodingContainer(
            PlainKeyedEncodingContainer<NestedKey>(object: node.claimObject(), codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let node = PlainNode()
        add(key, node)
        return PlainUnkeyedEncodingContainer(array: node.claimArray(), codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        object.isUnsupported = true
        return PlainValueEncoder(node: PlainNode(), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder()
    }
}

/// Appends the elements of an array.
struct PlainUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    /// The array being filled.
    let array: PlainArray
    /// The keys and indices that lead to it.
    let codingPath: [any CodingKey]

    /// Elements so far.
    var count: Int { array.elements.count }

    /// Appends an encoded scalar.
    private func add(scalar: [UInt8]) {
        let node = PlainNode()
        node.set(scalar)
        array.elements.append(node)
    }

    mutating func encodeNil() throws { add(scalar: Array("null".utf8)) }
    mutating func encode(_ value: Bool) throws { add(scalar: Array((value ? "true" : "false").utf8)) }
    mutating func encode(_ value: String) throws { add(scalar: try PlainNode.scalar(value)) }
    mutating func encode(_ value: Double) throws { throw PlainJSONEncoder.Unsupported() }
    mutating func encode(_ value: Float) throws { throw PlainJSONEncoder.Unsupported() }
    mutating func encode(_ value: Int) throws { add(scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: Int8) throws { add(scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: Int16) throws { add(scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: Int32) throws { add(scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: Int64) throws { add(scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt) throws { add(scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt8) throws { add(scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt16) throws { add(scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt32) throws { add(scalar: JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt64) throws { add(scalar: JSONDigits.decimal(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.elements.append(try PlainNode.encoding(value, codingPath: codingPath + [PlainIndexKey(intValue: count)]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let node = PlainNode()
        let path = codingPath + [PlainIndexKey(intValue: count)]
        array.elements.append(node)
        return KeyedEncodingContainer(
            PlainKeyedEncodingContainer<NestedKey>(object: node.claimObject(), codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let node = PlainNode()
        let path = codingPath + [PlainIndexKey(intValue: count)]
        array.elements.append(node)
        return PlainUnkeyedEncodingContainer(array: node.claimArray(), codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let node = PlainNode()
        node.content = .unsupported
        array.elements.append(node)
        return PlainValueEncoder(node: PlainNode(), codingPath: codingPath)
    }
}

/// Sets a value on its own (an enum's raw value, a wrapper type).
struct PlainSingleValueEncodingContainer: SingleValueEncodingContainer {
    /// Where the value goes.
    let node: PlainNode
    /// The keys and indices that lead to it.
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.set(Array("null".utf8)) }
    mutating func encode(_ value: Bool) throws { node.set(Array((value ? "true" : "false").utf8)) }
    mutating func encode(_ value: String) throws { node.set(try PlainNode.scalar(value)) }
    mutating func encode(_ value: Double) throws { throw PlainJSONEncoder.Unsupported() }
    mutating func encode(_ value: Float) throws { throw PlainJSONEncoder.Unsupported() }
    mutating func encode(_ value: Int) throws { node.set(JSONDigits.decimal(value)) }
    mutating func encode(_ value: Int8) throws { node.set(JSONDigits.decimal(value)) }
    mutating func encode(_ value: Int16) throws { node.set(JSONDigits.decimal(value)) }
    mutating func encode(_ value: Int32) throws { node.set(JSONDigits.decimal(value)) }
    mutating func encode(_ value: Int64) throws { node.set(JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt) throws { node.set(JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt8) throws { node.set(JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt16) throws { node.set(JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt32) throws { node.set(JSONDigits.decimal(value)) }
    mutating func encode(_ value: UInt64) throws { node.set(JSONDigits.decimal(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard case .empty = node.content else { throw PlainJSONEncoder.Unsupported() }
        try PlainNode.encode(value, into: node, codingPath: codingPath)
    }
}
