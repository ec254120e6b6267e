import Glibc

/// A `Decodable` type that also reads itself straight from the members of a plain JSON object
/// (see `JSONScanner.isPlain`), without `Decoder`'s boxed containers: the fast path of
/// `WireJSON.decode` and of the daemon's decoding of every dispatch's payload (about a tenth of
/// the instructions `init(from:)` takes for an action of a few fields).
///
/// `init(plainObject:)` must give what `init(from:)` gives for every object it takes, and
/// return `nil` for any other (a member it needs absent, or of another kind): `init(from:)`
/// then decodes that object, and words the error. Members it does not ask for are ignored,
/// as a synthesized `init(from:)` ignores them. Conform value types or final classes.
///
/// ```swift
/// extension EditItem: PlainObjectDecodable {
///     public init?(plainObject object: PlainObject) {
///         guard let number = object.integer("number"), let text = object.string("text"),
///             let change = object.optionalInteger("change")
///         else { return nil }
///         self.init(number: number, text: text)
///         self.change = change
///     }
/// }
/// ```
public protocol PlainObjectDecodable: Decodable {
    /// The value `object` holds, or `nil` to leave it to `init(from:)`.
    init?(plainObject object: PlainObject)
}

/// The members of one plain JSON object, as `PlainObjectDecodable` reads them. Each accessor
/// gives a member's value when it is there and of the kind asked for, else `nil`; the
/// `optional` ones give `.some(nil)` for an absent member or `null`, as `decodeIfPresent` does.
/// Not generic, so that an app's module calls each one as it is, without the type's metadata.
public struct PlainObject {
    private let bytes: [UInt8]
    private let members: [JSONObjectFields.Member]

    /// The members of `fields`, a plain object (no string with an escape, no number with a
    /// fraction or an exponent).
    init(_ fields: JSONObjectFields) {
        bytes = fields.bytes
        members = fields.members
    }

    /// The members of the object `json` is, when it is one and plain; `nil` otherwise (what
    /// `init(from:)` alone decodes). For an app's tests of its `init(plainObject:)`.
    public init?(plainJSON json: [UInt8]) {
        guard json.first == UInt8(ascii: "{"), let fields = JSONObjectFields(plain: json) else { return nil }
        self.init(fields)
    }

    /// The integer `key` holds.
    public func integer(_ key: StaticString) -> Int? {
        member(key).flatMap(int64).flatMap { Int(exactly: $0) }
    }

    /// The integer `key` holds, `.some(nil)` when `key` is absent or `null`.
    public func optionalInteger(_ key: StaticString) -> Int?? {
        guard let member = member(key), member.kind != .null else { return .some(nil) }
        return int64(member).flatMap { Int(exactly: $0) }.map { .some($0) }
    }

    /// The 64-bit integer `key` holds.
    public func int64(_ key: StaticString) -> Int64? {
        member(key).flatMap(int64)
    }

    /// The 64-bit integer `key` holds, `.some(nil)` when `key` is absent or `null`.
    public func optionalInt64(_ key: StaticString) -> Int64?? {
        guard let member = member(key), member.kind != .null else { return .some(nil) }
        return int64(member).map { .some($0) }
    }

    /// The string `key` holds.
    public func string(_ key: StaticString) -> String? {
        member(key).flatMap(string)
    }

    /// The string `key` holds, `.some(nil)` when `key` is absent or `null`.
    public func optionalString(_ key: StaticString) -> String?? {
        guard let member = member(key), member.kind != .null else { return .some(nil) }
        return string(member).map { .some($0) }
    }

    /// The member named `key`.
    private func member(_ key: StaticString) -> JSONObjectFields.Member? {
        let count = key.utf8CodeUnitCount
        return bytes.withUnsafeBufferPointer { buffer in
            members.first { member in
                member.key.count == count
                    && (count == 0 || memcmp(buffer.baseAddress! + member.key.lowerBound, key.utf8Start, count) == 0)
            }
        }
    }

    /// `member`'s value as a 64-bit integer, when it is a number that fits.
    private func int64(_ member: JSONObjectFields.Member) -> Int64? {
        guard member.kind == .number else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int64? in
            var position = member.value.lowerBound
            let negative = buffer[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            let digits = member.value.upperBound - position
            guard digits > 0, digits <= 19 else { return nil }
            var magnitude: UInt64 = 0
            while position < member.value.upperBound {
                let digit = buffer[position] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                magnitude = magnitude &* 10 &+ UInt64(digit)
                position += 1
            }
            if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
            return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
        }
    }

    /// `member`'s value, when it is a string (without escapes: the object is plain).
    private func string(_ member: JSONObjectFields.Member) -> String? {
        guard member.kind == .string else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            String(
                decoding: UnsafeBufferPointer(
                    rebasing: buffer[(member.value.lowerBound + 1)..<(member.value.upperBound - 1)]), as: UTF8.self)
        }
    }
}

extension PlainJSONDecoder {
    /// `type` read by its `init(plainObject:)` from `fields` (a plain object), when it has one
    /// and takes them; `nil` otherwise.
    static func read<T>(_ type: T.Type, from fields: JSONObjectFields) -> T? {
        guard let readable = type as? any PlainObjectDecodable.Type else { return nil }
        // `R` is `T` (a value type, or a final class: see `PlainObjectDecodable`), opened so
        // that no cast of the value is needed (a call into the runtime).
        func read<R: PlainObjectDecodable>(_ readable: R.Type) -> T? {
            guard let value = R(plainObject: PlainObject(fields)) else { return nil }
            return unsafeBitCast(value, to: T.self)
        }
        return read(readable)
    }
}
