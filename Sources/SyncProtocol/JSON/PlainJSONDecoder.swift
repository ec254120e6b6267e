#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes `Decodable` values straight from the bytes of plain JSON, several times cheaper
/// than `JSONDecoder` for the small messages of the wire: every action a daemon receives and
/// every model a subscriber receives.
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
            return try PlainValue(bytes: bytes, range: 0..<bytes.count, kind: .object, scanned: fields).decode(
                type, codingPath: [])
        }
        let top = try bytes.withUnsafeBufferPointer { buffer throws(Unsupported) in
            var scanner = JSONScanner(buffer, start: 0, end: buffer.count)
            scanner.checksNestedKeys = true
            guard let top = scanner.topLevelValue(), scanner.isPlain else { throw Unsupported() }
            return top
        }
        return try PlainValue(bytes: bytes, range: top.value, kind: top.kind).decode(type, codingPath: [])
    }

    /// Decodes `type` from the plain object at `range` of `fields.bytes`, whose members a scan
    /// found already (`fields.isKnownPlain`), or throws: without a second look at the bytes of
    /// its top level (nested objects and arrays are scanned when their values are decoded).
    static func decode<T: Decodable>(_ type: T.Type, object fields: JSONObjectFields, at range: Range<Int>) throws -> T
    {
        guard fields.isKnownPlain else { throw Unsupported() }
        return try PlainValue(bytes: fields.bytes, range: range, kind: .object, scanned: fields).decode(
            type, codingPath: [])
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

    /// The value as `T`, through `T`'s `init(from:)` unless `T` is a JSON primitive.
    func decode<T: Decodable>(_ type: T.Type, codingPath: [any CodingKey]) throws -> T {
        if let primitive = try primitive(type) { return primitive }
        guard !WireJSON.isSpecialCased(type) else { throw PlainJSONDecoder.Unsupported() }
        return try T(from: PlainValueDecoder(value: self, codingPath: codingPath))
    }

    /// The value as `T` when `T` is a string, a boolean or a number type; `nil` for other types.
    func primitive<T>(_ type: T.Type) throws -> T? {
        switch type {
        case is String.Type: return try string() as? T
        case is Bool.Type: return try bool() as? T
        case is Int.Type: return try integer(Int.self) as? T
        case is Int64.Type: return try integer(Int64.self) as? T
        case is Int32.Type: return try integer(Int32.self) as? T
        case is Int16.Type: return try integer(Int16.self) as? T
        case is Int8.Type: return try integer(Int8.self) as? T
        case is UInt.Type: return try integer(UInt.self) as? T
        case is UInt64.Type: return try integer(UInt64.self) as? T
        case is UInt32.Type: return try integer(UInt32.self) as? T
        case is UInt16.Type: return try integer(UInt16.self) as? T
        case is UInt8.Type: return try integer(UInt8.self) as? T
        case is Double.Type: return try double() as? T
        case is Float.Type: return try float() as? T
        default: return nil
        }
    }

    /// Whether the value is `null`.
    var isNull: Bool { kind == .null }

    /// The string, without its quotes (plain strings have no escapes), if it is valid UTF-8.
    func string() throws -> String {
        guard kind == .string,
            let text = String(validating: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)], as: UTF8.self)
        else {
            throw PlainJSONDecoder.Unsupported()
        }
        return text
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

    /// The members of this object, or throws.
    func members() throws -> JSONObjectFields {
        if let scanned { return scanned }
        guard kind == .object, let fields = JSONObjectFields(bytes, range: range) else {
            throw PlainJSONDecoder.Unsupported()
        }
        return fields
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

/// The `Decoder` `init(from:)` sees for one value.
final class PlainValueDecoder: Decoder {
    /// The value being decoded.
    let value: PlainValue
    /// The keys and indices that lead to it.
    let codingPath: [any CodingKey]
    /// Nothing: the wire's types need no context.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A decoder of `value`, found at `codingPath`.
    init(value: PlainValue, codingPath: [any CodingKey]) {
        self.value = value
        self.codingPath = codingPath
    }

    /// The members of the value, which must be an object.
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(PlainKeyedContainer<Key>(fields: try value.members(), codingPath: codingPath))
    }

    /// The elements of the value, which must be an array.
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        PlainUnkeyedContainer(elements: try value.elements(), codingPath: codingPath)
    }

    /// The value on its own.
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PlainSingleValueContainer(value: value, codingPath: codingPath)
    }
}
