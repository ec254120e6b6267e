import Glibc

/// The members of an object, by key.
struct PlainKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The object's decoder: where it is, and its members. The container's only reference:
    /// `KeyedDecodingContainer`'s box copies the container for every key decoded, and a copy
    /// retains (and its end releases) each reference the container holds.
    let decoder: PlainValueDecoder

    /// A container of the members of the object `decoder` decodes, which it found
    /// (`decoder.value.scanned` is not `nil`).
    init(decoder: PlainValueDecoder) {
        self.decoder = decoder
    }

    /// The object's members.
    private var fields: JSONObjectFields {
        guard let members = decoder.value.scanned else { preconditionFailure("a keyed container of a non-object") }
        return members
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        fields.members.compactMap { Key(stringValue: String(decoding: fields.bytes[$0.key], as: UTF8.self)) }
    }

    func contains(_ key: Key) -> Bool {
        member(key) != nil
    }

    /// The member named by `key`, if there is one.
    private func member(_ key: Key) -> JSONObjectFields.Member? {
        var name = key.stringValue
        return name.withUTF8 { name in
            fields.bytes.withUnsafeBufferPointer { bytes in
                fields.members.first { member in
                    member.key.count == name.count
                        && (name.isEmpty
                            || memcmp(bytes.baseAddress! + member.key.lowerBound, name.baseAddress!, name.count) == 0)
                }
            }
        }
    }

    /// The value of `key`; a missing key is `JSONDecoder`'s to report.
    private func value(_ key: Key) throws -> PlainValue {
        guard let member = member(key) else { throw PlainJSONDecoder.Unsupported() }
        return PlainValue(bytes: fields.bytes, range: member.value, kind: member.kind)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key).double() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key).float() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(key).integer(type) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try value(key).decode(type, at: PlainCodingPath(parent: decoder, key: key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try PlainValueDecoder(value: try value(key), path: PlainCodingPath(parent: decoder, key: key)).container(
            keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try PlainValueDecoder(value: try value(key), path: PlainCodingPath(parent: decoder, key: key))
            .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { throw PlainJSONDecoder.Unsupported() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw PlainJSONDecoder.Unsupported() }
}

/// The elements of an array, in order.
struct PlainUnkeyedContainer: UnkeyedDecodingContainer {
    /// The array's elements.
    let elements: [PlainValue]
    /// The array's decoder: where it is.
    let decoder: PlainValueDecoder
    private(set) var currentIndex = 0

    /// A container reading `elements` in order.
    init(elements: [PlainValue], decoder: PlainValueDecoder) {
        self.elements = elements
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element; reading past the end is `JSONDecoder`'s to report.
    private mutating func next() throws -> PlainValue {
        guard !isAtEnd else { throw PlainJSONDecoder.Unsupported() }
        defer { currentIndex += 1 }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw PlainJSONDecoder.Unsupported() }
        if elements[currentIndex].isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().bool() }
    mutating func decode(_ type: String.Type) throws -> String { try next().string() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().double() }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().float() }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().integer(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let path = nextPath
        return try next().decode(type, at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let path = nextPath
        return try PlainValueDecoder(value: try next(), path: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = nextPath
        return try PlainValueDecoder(value: try next(), path: path).unkeyedContainer()
    }

    /// Where the next element is.
    private var nextPath: PlainCodingPath {
        PlainCodingPath(parent: decoder, key: PlainIndexKey(intValue: currentIndex))
    }

    mutating func superDecoder() throws -> any Decoder { throw PlainJSONDecoder.Unsupported() }
}

/// A value on its own (an enum's raw value, a wrapper type).
struct PlainSingleValueContainer: SingleValueDecodingContainer {
    /// The value's decoder.
    let decoder: PlainValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var value: PlainValue { decoder.value }

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try value.bool() }
    func decode(_ type: String.Type) throws -> String { try value.string() }
    func decode(_ type: Double.Type) throws -> Double { try value.double() }
    func decode(_ type: Float.Type) throws -> Float { try value.float() }
    func decode(_ type: Int.Type) throws -> Int { try value.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try value.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try value.decode(type, at: decoder.path) }
}

/// The coding key of an array element: its index.
struct PlainIndexKey: CodingKey {
    /// The index.
    let intValue: Int?
    /// The index as `JSONDecoder` words it in coding paths.
    var stringValue: String { "Index \(intValue ?? 0)" }
    /// The key of element `intValue`.
    init(intValue: Int) { self.intValue = intValue }
    /// Never: array elements have no names.
    init?(stringValue: String) { nil }
}
