/// A `Decodable` type that also reads itself straight from the members of a plain JSON object
/// (see `JSONScanner.isPlain`), without `Decoder`'s boxed containers: the fast path of
/// `WireJSON.decode` and of the daemon's decoding of every dispatch's payload (about a quarter of
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

    /// Initializes the uninitialized memory at `value` (aligned for `Self`, room for one) to
    /// `init(plainObject:)`'s value and returns `true`, or leaves it uninitialized and returns
    /// `false`. Do not implement it: the default, compiled in the conforming type's module,
    /// knows `Self`, so that a decoder generic over the type (the daemon's, for every action)
    /// asks the runtime for no `Optional<Self>`; another implementation must keep exactly this
    /// contract.
    static func read(_ object: PlainObject, into value: UnsafeMutableRawPointer) -> Bool
}

extension PlainObjectDecodable {
    /// The default `read(_:into:)`, through `init(plainObject:)`.
    @inlinable
    public static func read(_ object: PlainObject, into value: UnsafeMutableRawPointer) -> Bool {
        guard let read = Self(plainObject: object) else { return false }
        value.initializeMemory(as: Self.self, to: read)
        return true
    }
}

/// The members of one plain JSON object, as `PlainObjectDecodable` reads them. Each accessor
/// gives a member's value when it is there and of the kind asked for, else `nil`; the
/// `optional` ones give `.some(nil)` for an absent member or `null`, as `decodeIfPresent` does.
/// Not generic, so that an app's module calls each one as it is, without the type's metadata.
public struct PlainObject {
    private let fields: JSONObjectFields

    /// The members of `fields`, a plain object (no string with an escape, no number with a
    /// fraction or an exponent).
    init(_ fields: JSONObjectFields) {
        self.fields = fields
    }

    /// The members of the object `json` is, when it is one and plain; `nil` otherwise (what
    /// `init(from:)` alone decodes). For an app's tests of its `init(plainObject:)`.
    public init?(plainJSON json: [UInt8]) {
        guard json.first == UInt8(ascii: "{"), let fields = JSONObjectFields(plain: json) else { return nil }
        self.init(fields)
    }

    /// The integer `key` holds.
    public func integer(_ key: StaticString) -> Int? {
        fields.plainInteger(key).flatMap { Int(exactly: $0) }
    }

    /// The integer `key` holds, `.some(nil)` when `key` is absent or `null`.
    public func optionalInteger(_ key: StaticString) -> Int?? {
        guard let member = fields.member(key), member.kind != .null else { return .some(nil) }
        return fields.plainInteger(member).flatMap { Int(exactly: $0) }.map { .some($0) }
    }

    /// The 64-bit integer `key` holds.
    public func int64(_ key: StaticString) -> Int64? {
        fields.plainInteger(key)
    }

    /// The 64-bit integer `key` holds, `.some(nil)` when `key` is absent or `null`.
    public func optionalInt64(_ key: StaticString) -> Int64?? {
        guard let member = fields.member(key), member.kind != .null else { return .some(nil) }
        return fields.plainInteger(member).map { .some($0) }
    }

    /// The string `key` holds.
    public func string(_ key: StaticString) -> String? {
        fields.plainString(key)
    }

    /// The string `key` holds, `.some(nil)` when `key` is absent or `null`.
    public func optionalString(_ key: StaticString) -> String?? {
        guard let member = fields.member(key), member.kind != .null else { return .some(nil) }
        return fields.plainString(member).map { .some($0) }
    }
}

extension PlainJSONDecoder {
    /// `type` read by its `init(plainObject:)` from `fields` (a plain object), when it has one
    /// and takes them; throws otherwise.
    static func read<T>(_ type: T.Type, from fields: JSONObjectFields) throws(Unsupported) -> T {
        guard let readable = type as? any PlainObjectDecodable.Type else { throw Unsupported() }
        // Read into memory for a `T` (`readable` is `T`: a value type, or a final class, see
        // `PlainObjectDecodable`), not as a `T?`: each `Optional<T>` in this generic code is
        // a call into the runtime for its metadata.
        return try withUnsafeTemporaryAllocation(of: type, capacity: 1) { slot throws(Unsupported) in
            guard let start = slot.baseAddress, readable.read(PlainObject(fields), into: start) else {
                throw Unsupported()
            }
            return start.move()
        }
    }
}
