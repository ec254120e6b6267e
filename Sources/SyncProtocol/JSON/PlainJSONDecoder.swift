#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes `Decodable` values straight from the bytes of plain JSON, several times cheaper
/// than `JSONDecoder` for the small messages of the wire: every action a daemon receives and
/// every model a subscriber receives. A top-level object of a `PlainObjectDecodable` type is
/// read by its `init(plainObject:)` first.
///
/// Plain means what `JSONScanner.isPlain` says: strings without escapes, integers without
/// fraction or exponent, no key given twice. On such documents there is one right answer and
/// this decoder gives the one `JSONDecoder` gives (with its default strategies); anything else
/// throws `Unsupported` before any value is built, and `WireJSON.decode` then asks
/// `JSONDecoder`, which also words every decoding error: this decoder's own errors never
/// reach a caller.
enum PlainJSONDecoder {
    /// The document or a value in it is not one this decoder handles.
    struct Unsupported: Error {}

    /// Decodes `type` from `bytes`, or throws.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        if bytes.first == UInt8(ascii: "{") {
            guard let fields = JSONObjectFields(plain: bytes) else { throw Unsupported() }
            do { return try read(type, from: fields) } catch {}
            return try PlainValue(bytes: bytes, range: 0..<bytes.count, kind: .object, scanned: fields).decode(
                type, at: .top)
        }
        let top = try bytes.withUnsafeBufferPointer { buffer throws(Unsupported) in
            var scanner = JSONScanner(buffer, start: 0, end: buffer.count)
            scanner.checksNestedKeys = true
            guard let top = scanner.topLevelValue(), scanner.isPlain else { throw Unsupported() }
            return top
        }
        return try PlainValue(bytes: bytes, range: top.value, kind: top.kind).decode(type, at: .top)
    }

    /// Decodes `type` from the plain object at `range` of `fields.bytes`, whose members a scan
    /// found already (`fields.isKnownPlain`), or throws: without a second look at the bytes of
    /// its top level (nested objects and arrays are scanned when their values are decoded).
    static func decode<T: Decodable>(_ type: T.Type, object fields: JSONObjectFields, at range: Range<Int>) throws -> T
    {
        guard fields.isKnownPlain else { throw Unsupported() }
        do { return try read(type, from: fields) } catch {}
        return try PlainValue(bytes: fields.bytes, range: range, kind: .object, scanned: fields).decode(type, at: .top)
    }
}

/// One value of a plain document: where it is and what it is.
struct PlainValue {
    /// The whole document.
    let bytes: [UInt8]
    /// The value's bytes in it.
    let range: Range<Int>
    /// What the value is.
    let kind: JSONObjectFields.Kind
    /// The members of this object, when a scan already found them.
    var scanned: JSONObjectFields?

    /// The value as `T`: read here when `T` is a string, a boolean, a number type or a
    /// `JSONValue`, else through `T`'s `init(from:)`. The types are compared, not cast, and
    /// nothing is wrapped in an optional `T`: in this generic code each cast and each `T?` is a
    /// call into the runtime for the type's metadata, on every value decoded.
    func decode<T: Decodable>(_ type: T.Type, at path: PlainCodingPath) throws -> T {
        if T.self == String.self { return unsafeBitCast(try string(), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try integer(Int.self), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try bool(), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try double(), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try integer(Int64.self), to: T.self) }
        if T.self == UInt64.self { return unsafeBitCast(try integer(UInt64.self), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try integer(Int32.self), to: T.self) }
        if T.self == UInt32.self { return unsafeBitCast(try integer(UInt32.self), to: T.self) }
        if T.self == Int16.self { return unsafeBitCast(try integer(Int16.self), to: T.self) }
        if T.self == UInt16.self { return unsafeBitCast(try integer(UInt16.self), to: T.self) }
        if T.self == Int8.self { return unsafeBitCast(try integer(Int8.self), to: T.self) }
        if T.self == UInt8.self { return unsafeBitCast(try integer(UInt8.self), to: T.self) }
        if T.self == UInt.self { return unsafeBitCast(try integer(UInt.self), to: T.self) }
        if T.self == Float.self { return unsafeBitCast(try float(), to: T.self) }
        if T.self == JSONValue.self { return unsafeBitCast(try jsonValue(), to: T.self) }
        guard !WireJSON.isSpecialCased(type) else { throw PlainJSONDecoder.Unsupported() }
        return try T(from: PlainValueDecoder(value: self, path: path))
    }

    /// The value as `JSONValue.init(from:)` reads it, taken by its kind. That initializer
    /// tries each type in turn, and every miss is a thrown error: five for each object.
    func jsonValue() throws -> JSONValue {
        switch kind {
        case .null: return .null
        case .bool: return .bool(try bool())
        case .string: return .string(try string())
        case .number:
            // Twenty characters hold every `Int64`, sign included, and nothing longer fits one.
            if range.count <= 20, let integer = Int64(exactly: try digits()) { return .integer(integer) }
            return .number(try double())
        case .array: return .array(try elements().map { try $0.jsonValue() })
        case .object:
            guard let fields = scanned ?? JSONObjectFields(bytes, range: range) else {
                throw PlainJSONDecoder.Unsupported()
            }
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(fields.members.count)
            for member in fields.members {
                let key = bytes.withUnsafeBufferPointer { buffer in
                    String(decoding: UnsafeBufferPointer(rebasing: buffer[member.key]), as: UTF8.self)
                }
                members[key] = try PlainValue(bytes: bytes, range: member.value, kind: member.kind).jsonValue()
            }
            return .object(members)
        }
    }

    /// Whether the value is `null`.
    var isNull: Bool { kind == .null }

    /// The string, without its quotes (plain strings have no escapes). The scan that found the
    /// value checked its UTF-8 already.
    func string() throws -> String {
        guard kind == .string else { throw PlainJSONDecoder.Unsupported() }
        let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
        return bytes.withUnsafeBufferPointer { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[inner]), as: UTF8.self)
        }
    }

    /// The boolean.
    func bool() throws -> Bool {
        guard kind == .bool else { throw PlainJSONDecoder.Unsupported() }
        return bytes[range.lowerBound] == UInt8(ascii: "t")
    }

    /// The integer, if it fits `T` exactly.
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard kind == .number, let value = T(exactly: try digits()) else { throw PlainJSONDecoder.Unsupported() }
        return value
    }

    /// A plain integer as a double: what `JSONDecoder` gives for it, correctly rounded. One
    /// beyond the doubles (309 digits or more) would be infinity here, where `JSONDecoder`
    /// refuses it, so it is left to `JSONDecoder`.
    func double() throws -> Double {
        guard kind == .number, let value = Double(String(decoding: bytes[range], as: UTF8.self)), value.isFinite else {
            throw PlainJSONDecoder.Unsupported()
        }
        return value
    }

    /// A plain integer as a float, when the float holds it exactly (no rounding question).
    func float() throws -> Float {
        guard let value = Float(exactly: try digits()) else { throw PlainJSONDecoder.Unsupported() }
        return value
    }

    /// The integer's value, wide enough for any `Int64` or `UInt64`.
    private func digits() throws -> Int128 {
        var magnitude: Int128 = 0
        var start = range.lowerBound
        let negative = bytes[start] == UInt8(ascii: "-")
        if negative { start += 1 }
        guard range.upperBound - start <= 20 else { throw PlainJSONDecoder.Unsupported() }
        for index in start..<range.upperBound { magnitude = magnitude * 10 + Int128(bytes[index] - UInt8(ascii: "0")) }
        return negative ? -magnitude : magnitude
    }

    /// The elements of this array, or throws.
    func elements() throws -> [PlainValue] {
        guard kind == .array,
            let elements = bytes.withUnsafeBufferPointer({ buffer in
                var scanner = JSONScanner(buffer, start: range.lowerBound, end: range.upperBound)
                return scanner.topLevelArray()
            })
        else { throw PlainJSONDecoder.Unsupported() }
        return elements.map { PlainValue(bytes: bytes, range: $0.value, kind: $0.kind) }
    }
}

/// Where a value sits in the document, for `codingPath`: the decoder of the value around it
/// and the key or index that leads from there. The path is spelled out only when asked for, so
/// that decoding builds no array of keys per value.
struct PlainCodingPath {
    /// The decoder of the enclosing value; `nil` at the top.
    let parent: PlainValueDecoder?
    /// The key or index of the value in its parent.
    let key: (any CodingKey)?

    /// The top of the document.
    static var top: PlainCodingPath { PlainCodingPath(parent: nil, key: nil) }

    /// The keys and indices from the top to the value.
    var keys: [any CodingKey] {
        var keys = parent?.codingPath ?? []
        if let key { keys.append(key) }
        return keys
    }
}

/// The `Decoder` `init(from:)` sees for one value.
final class PlainValueDecoder: Decoder {
    /// The value being decoded.
    let value: PlainValue
    /// Where it is.
    let path: PlainCodingPath
    /// Nothing: the wire's types need no context.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A decoder of `value`, found at `path`. An object's members are found here, once: the
    /// value keeps them (`scanned`) for its keyed containers, and for the decoders a single-value
    /// container hands the same value on to (a type that tries several types in turn).
    init(value: PlainValue, path: PlainCodingPath) {
        var value = value
        if value.scanned == nil && value.kind == .object {
            // `nil` still when the object is not one this decoder takes: its keyed container throws.
            value.scanned = JSONObjectFields(value.bytes, range: value.range)
        }
        self.value = value
        self.path = path
    }

    /// The keys and indices that lead to the value.
    var codingPath: [any CodingKey] { path.keys }

    /// The members of the value, which must be an object.
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard value.scanned != nil else { throw PlainJSONDecoder.Unsupported() }
        return KeyedDecodingContainer(PlainKeyedContainer<Key>(decoder: self))
    }

    /// The elements of the value, which must be an array.
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        PlainUnkeyedContainer(elements: try value.elements(), decoder: self)
    }

    /// The value on its own.
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PlainSingleValueContainer(decoder: self)
    }
}
