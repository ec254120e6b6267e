#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Encodes `Encodable` values to the bytes `WireJSON.makeEncoder()` would write, several times
/// faster, for the plain values most messages hold: what every dispatch journals and every
/// SyncClient dispatch sends.
///
/// Plain means: strings of printable ASCII (where only `"` and `\` are escaped), integers,
/// booleans, nulls, arrays, and objects whose keys sort the same bytewise and ignoring case
/// with no digits in them (so that the sorted-keys order cannot depend on how the encoder
/// compares keys). Anything else (a floating-point number, a `Date`, `Data`, `URL` or
/// `Decimal`, a string with control characters or beyond ASCII, a `superEncoder`) throws
/// `Unsupported`, and `WireJSON.encode` then asks `JSONEncoder`.
enum PlainJSONEncoder {
    /// The value holds something this encoder leaves to `JSONEncoder`.
    struct Unsupported: Error {}

    /// The encoding of `value`, or throws.
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let root = try PlainNode.encoding(value, codingPath: [])
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        try root.write(to: &bytes)
        return bytes
    }
}

/// One value being encoded: filled in once by whatever encodes it.
final class PlainNode {
    /// What the node holds so far.
    enum Content {
        case empty
        case scalar([UInt8])
        case object(PlainObject)
        case array(PlainArray)
        /// Encoded in a way this encoder does not follow (two kinds of container, a
        /// `superEncoder`): writing it throws.
        case unsupported
    }

    /// What the node holds so far.
    var content = Content.empty

    /// Encodes `value` into a new node.
    static func encoding<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> PlainNode {
        let node = PlainNode()
        try encode(value, into: node, codingPath: codingPath)
        return node
    }

    /// Encodes `value` into `node`.
    static func encode<T: Encodable>(_ value: T, into node: PlainNode, codingPath: [any CodingKey]) throws {
        switch value {
        case let text as String: node.set(try scalar(text))
        case let flag as Bool: node.set(Array((flag ? "true" : "false").utf8))
        case let number as Int: node.set(JSONDigits.decimal(number))
        case let number as Int64: node.set(JSONDigits.decimal(number))
        case let number as UInt64: node.set(JSONDigits.decimal(number))
        case let number as Int32: node.set(JSONDigits.decimal(number))
        case let number as UInt32: node.set(JSONDigits.decimal(number))
        case is Double, is Float: throw PlainJSONEncoder.Unsupported()
        default:
            guard !WireJSON.isSpecialCased(T.self) else { throw PlainJSONEncoder.Unsupported() }
            try value.encode(to: PlainValueEncoder(node: node, codingPath: codingPath))
        }
    }

    /// Sets a scalar; a node set twice is unsupported.
    func set(_ scalar: [UInt8]) {
        if case .empty = content { content = .scalar(scalar) } else { content = .unsupported }
    }

    /// The node's object, made now if it is empty.
    func claimObject() -> PlainObject {
        switch content {
        case .empty:
            let object = PlainObject()
            content = .object(object)
            return object
        case .object(let object):
            return object
        default:
            content = .unsupported
            return PlainObject()
        }
    }

    /// The node's array, made now if it is empty.
    func claimArray() -> PlainArray {
        switch content {
        case .empty:
            let array = PlainArray()
            content = .array(array)
            return array
        case .array(let array):
            return array
        default:
            content = .unsupported
            return PlainArray()
        }
    }

    /// A string as JSON, when it needs no escaping.
    static func scalar(_ text: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try append(text, to: &bytes)
        return bytes
    }

    /// Appends `text` as a JSON string, when it is printable ASCII: a `"` or `\` is escaped
    /// with a backslash, as `JSONEncoder` does, and nothing else needs escaping.
    static func append(_ text: String, to bytes: inout [UInt8]) throws {
        var text = text
        let plain = text.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return false }
            bytes.reserveCapacity(bytes.count + utf8.count + 2)
            bytes.append(UInt8(ascii: "\""))
            var start = 0
            for (index, byte) in utf8.enumerated() where byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                bytes.append(UInt8(ascii: "\\"))
                start = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        guard plain else { throw PlainJSONEncoder.Unsupported() }
    }

    /// Writes the node's JSON, object keys sorted.
    func write(to bytes: inout [UInt8]) throws {
        switch content {
        case .empty, .unsupported:
            throw PlainJSONEncoder.Unsupported()
        case .scalar(let scalar):
            bytes.append(contentsOf: scalar)
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in array.elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isUnsupported else { throw PlainJSONEncoder.Unsupported() }
            let sorted = object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in sorted.enumerated() {
                if index > 0 {
                    try Self.checkUnambiguousOrder(sorted[index - 1].key, member.key)
                    bytes.append(UInt8(ascii: ","))
                }
                try Self.append(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try member.node.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Throws unless `first` and `second` (sorted bytewise) are in the same order ignoring
    /// case, are not equal ignoring case, and hold no digits: then any way of sorting keys puts
    /// `first` before `second`.
    private static func checkUnambiguousOrder(_ first: String, _ second: String) throws {
        func folded(_ byte: UInt8) throws -> UInt8 {
            guard byte < UInt8(ascii: "0") || byte > UInt8(ascii: "9") else { throw PlainJSONEncoder.Unsupported() }
            return byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        }
        var left = first.utf8.makeIterator()
        var right = second.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): throw PlainJSONEncoder.Unsupported()
            case (nil, .some(let byte)):
                _ = try folded(byte)
                while let byte = right.next() { _ = try folded(byte) }
                return
            case (.some, nil): throw PlainJSONEncoder.Unsupported()
            case (.some(let leftByte), .some(let rightByte)):
                let (a, b) = (try folded(leftByte), try folded(rightByte))
                if a == b { continue }
                guard a < b else { throw PlainJSONEncoder.Unsupported() }
                while let byte = left.next() { _ = try folded(byte) }
                while let byte = right.next() { _ = try folded(byte) }
                return
            }
        }
    }
}

/// The members of an object being encoded, in the order they were encoded.
final class PlainObject {
    /// Key and value of each member, in encoding order.
    var members: [(key: String, node: PlainNode)] = []
    /// Set when something asked for a `superEncoder`.
    var isUnsupported = false
}

/// The elements of an array being encoded.
final class PlainArray {
    /// The elements, in order.
    var elements: [PlainNode] = []
}

/// The `Encoder` `encode(to:)` sees for one value; it may ask for one container.
final class PlainValueEncoder: Encoder {
    /// Where the value goes.
    let node: PlainNode
    /// The keys and indices that lead to it.
    let codingPath: [any CodingKey]
    /// Nothing: the wire's types need no context.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// An encoder filling `node`, found at `codingPath`.
    init(node: PlainNode, codingPath: [any CodingKey]) {
        self.node = node
        self.codingPath = codingPath
    }

    /// Makes the value an object and adds members to it.
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(PlainKeyedEncodingContainer<Key>(object: node.claimObject(), codingPath: codingPath))
    }

    /// Makes the value an array and appends elements to it.
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        PlainUnkeyedEncodingContainer(array: node.claimArray(), codingPath: codingPath)
    }

    /// Sets the value on its own.
    func singleValueContainer() -> any SingleValueEncodingContainer {
        PlainSingleValueEncodingContainer(node: node, codingPath: codingPath)
    }
}
