/// An `Encodable` type that also writes itself as a JSON object straight into the bytes of the
/// encoding, without `Encoder`'s boxed containers: the fast path of `WireJSON.encode` (the
/// snapshots the daemon saves are mostly values of a few such types, thousands of them).
///
/// `encode(to:)` must write the members its `encode(to:)` for an `Encoder` writes, with the
/// same values, in the order of their keys' bytes (`PlainObjectWriter` checks the order, and
/// the encoding falls back to `JSONEncoder` when it is wrong, as it does for a string that is
/// not printable ASCII). Conform value types or final classes: the writer of the static type
/// is the one used.
///
/// ```swift
/// extension UndoStep: PlainObjectEncodable {
///     public func encode(to object: inout PlainObjectWriter) {
///         object.encodeIfPresent(change, forKey: "change")
///         object.encode(changes, forKey: "changes")
///         object.encode(summary, forKey: "summary")
///     }
/// }
/// ```
public protocol PlainObjectEncodable: Encodable {
    /// Writes the value's members, in the order of their keys.
    func encode(to object: inout PlainObjectWriter)
}

/// Writes the members of one JSON object, key after key in bytewise order, for
/// `PlainObjectEncodable`. Anything it cannot write as the wire's encoder would (a key out of
/// order, a string that is not printable ASCII) fails the whole encoding, which `WireJSON`
/// then leaves to `JSONEncoder`.
public struct PlainObjectWriter {
    /// The encoder of the object's value: its sink takes the bytes, and a member that is not a
    /// scalar is encoded by a child of it.
    private let encoder: PlainValueEncoder
    /// The key written last, to check the order.
    private var lastKey: StaticString?

    fileprivate init(_ encoder: PlainValueEncoder) {
        self.encoder = encoder
        encoder.sink.bytes.append(UInt8(ascii: "{"))
    }

    /// Writes `value` at `key`.
    public mutating func encode(_ value: Int, forKey key: StaticString) {
        guard begin(key) else { return }
        JSONDigits.append(value, to: &encoder.sink.bytes)
    }

    /// Writes `value` at `key`.
    public mutating func encode(_ value: Int64, forKey key: StaticString) {
        guard begin(key) else { return }
        JSONDigits.append(value, to: &encoder.sink.bytes)
    }

    /// Writes `value` at `key`.
    public mutating func encode(_ value: Bool, forKey key: StaticString) {
        guard begin(key) else { return }
        encoder.sink.bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    /// Writes `value` at `key`.
    public mutating func encode(_ value: String, forKey key: StaticString) {
        guard begin(key) else { return }
        do {
            try PlainJSONString.append(value, to: &encoder.sink.bytes)
        } catch {
            encoder.sink.fail()
        }
    }

    /// Writes `value` at `key`, as the `Encoder` of the encoding would.
    public mutating func encode<T: Encodable>(_ value: T, forKey key: StaticString) {
        guard begin(key) else { return }
        let child = encoder.child(at: PlainStaticKey(key))
        do {
            try child.encode(value)
        } catch {
            encoder.sink.fail()
        }
        child.finish()
    }

    /// Writes `value` at `key` with its own writer, straight after the key.
    public mutating func encode<T: PlainObjectEncodable>(_ value: T, forKey key: StaticString) {
        guard begin(key) else { return }
        Self.write(value, with: encoder)
    }

    /// Writes `values` at `key`, an array of objects each written by its own writer.
    public mutating func encode<T: PlainObjectEncodable>(_ values: [T], forKey key: StaticString) {
        guard begin(key) else { return }
        encoder.sink.bytes.append(UInt8(ascii: "["))
        for index in values.indices {
            if index > 0 { encoder.sink.bytes.append(UInt8(ascii: ",")) }
            Self.write(values[index], with: encoder)
        }
        encoder.sink.bytes.append(UInt8(ascii: "]"))
    }

    /// Writes `value` as an object at the end of `encoder`'s bytes.
    fileprivate static func write<T: PlainObjectEncodable>(_ value: T, with encoder: PlainValueEncoder) {
        var object = PlainObjectWriter(encoder)
        value.encode(to: &object)
        object.end()
    }

    /// Writes `value` at `key` when there is one; nothing otherwise (as `encodeIfPresent`; the
    /// `encode` above writes `null` for `nil`, as a keyed container's `encode` does).
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: StaticString) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes `value` at `key` when there is one; nothing otherwise (as `encodeIfPresent`).
    public mutating func encodeIfPresent(_ value: Int?, forKey key: StaticString) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes `value` at `key` when there is one; nothing otherwise (as `encodeIfPresent`).
    public mutating func encodeIfPresent(_ value: Int64?, forKey key: StaticString) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes an object at `key`, whose members `body` writes (as `nestedContainer(keyedBy:)`).
    public mutating func encodeObject(forKey key: StaticString, _ body: (inout PlainObjectWriter) -> Void) {
        guard begin(key) else { return }
        var nested = PlainObjectWriter(encoder)
        body(&nested)
        nested.end()
    }

    /// Begins the member `key`: its key and colon, after a comma unless it is the first.
    /// `false` when the encoding has failed, or fails now because `key` is not after the last.
    private mutating func begin(_ key: StaticString) -> Bool {
        guard !encoder.sink.failed else { return false }
        // The first key is checked too, after the empty key: that it is written as it is.
        guard Self.isOrdered(lastKey ?? "", key) else {
            encoder.sink.fail()
            return false
        }
        if lastKey != nil { encoder.sink.bytes.append(UInt8(ascii: ",")) }
        lastKey = key
        encoder.sink.bytes.append(UInt8(ascii: "\""))
        encoder.sink.bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        encoder.sink.bytes.append(UInt8(ascii: "\""))
        encoder.sink.bytes.append(UInt8(ascii: ":"))
        return true
    }

    /// Closes the object.
    fileprivate func end() {
        encoder.sink.bytes.append(UInt8(ascii: "}"))
    }

    /// Whether `next` comes after `previous` both bytewise and ignoring case, as the wire's
    /// sorted keys must (see `PlainJSONEncoder`), and is a key written as it is: printable
    /// ASCII without a quote, a backslash or a digit.
    private static func isOrdered(_ previous: StaticString, _ next: StaticString) -> Bool {
        let left = previous.utf8Start
        let right = next.utf8Start
        let leftCount = previous.utf8CodeUnitCount
        let rightCount = next.utf8CodeUnitCount
        // The order bytewise and ignoring case of the first bytes that differ (0: none yet).
        var bytewise = 0
        var ignoringCase = 0
        var index = 0
        while index < rightCount {
            let byte = right[index]
            guard byte >= 0x20, byte < 0x7F, byte != 0x22, byte != 0x5C, byte < 0x30 || byte > 0x39 else {
                return false
            }
            if index < leftCount, bytewise == 0 || ignoringCase == 0 {
                let other = left[index]
                if bytewise == 0, other != byte { bytewise = other < byte ? 1 : -1 }
                let (a, b) = (folded(other), folded(byte))
                if ignoringCase == 0, a != b { ignoringCase = a < b ? 1 : -1 }
            }
            index += 1
        }
        let isPrefix = leftCount < rightCount ? 1 : -1
        return (bytewise == 0 ? isPrefix : bytewise) > 0 && (ignoringCase == 0 ? isPrefix : ignoringCase) > 0
    }

    /// `byte` in lower case, if it is an ASCII capital.
    private static func folded(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}

/// The coding key of a member `PlainObjectWriter` writes, for the coding path of its value.
private struct PlainStaticKey: CodingKey {
    let key: StaticString

    init(_ key: StaticString) {
        self.key = key
    }

    var stringValue: String { "\(key)" }
    var intValue: Int? { nil }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

extension PlainValueEncoder {
    /// Writes `value` through its `encode(to:)` for a `PlainObjectWriter` when its type has one;
    /// `false` otherwise. The value's bytes are then complete, as a scalar's are.
    func writePlainObject<T: Encodable>(_ value: T) -> Bool {
        guard let writable = sink.plainObjectEncodable(T.self) else { return false }
        // `W` is `T` (a value type, or a final class: see `PlainObjectEncodable`), opened so
        // that no cast of the value is needed (a call into the runtime).
        func write<W: PlainObjectEncodable>(_ writable: W.Type) {
            PlainObjectWriter.write(unsafeBitCast(value, to: W.self), with: self)
        }
        write(writable)
        return true
    }
}
