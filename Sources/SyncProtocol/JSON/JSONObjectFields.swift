import Glibc

/// The top-level members of one JSON object, found in a single pass over its bytes without
/// building any value: where each member's value starts and ends, and what kind it is.
///
/// It is the cheap first look at a message: enough to route it (its `type`, `id`, `version`,
/// `subscription`) and to hand one member's bytes (a dispatch's payload, an update's model) to a
/// typed decoder, instead of decoding the whole message twice with `JSONDecoder`.
///
/// ```
/// {"id":7,"model":{"items":[…]},"type":"update"}
///  ^^ ^   ^^^^^   ^^^^^^^^^^^^^^  ^^^^   ^^^^^^
///  key value      value (object)  key    value (string)
/// ```
///
/// It only takes the plain case and refuses the rest (`init` returns `nil`), so that callers
/// fall back to a slower path: anything that is not valid JSON, a top level that is not an
/// object, a key with escapes, a key given twice. The scan is strict RFC 8259 (see
/// `JSONSyntaxError`): the syntax of every value is checked, nested ones included, and so is
/// UTF-8 inside strings, so a scan that succeeds has checked the whole text.
public struct JSONObjectFields {
    /// What a member's value is.
    public enum Kind: Equatable, Sendable {
        case string, number, object, array, bool, null
    }

    /// One member: the bytes of its key (without quotes) and of its value, and the value's kind.
    public struct Member: Equatable, Sendable {
        /// The key's bytes inside the quotes.
        public let key: Range<Int>
        /// The value's bytes, quotes and brackets included.
        public let value: Range<Int>
        /// What the value is.
        public let kind: Kind
    }

    /// The bytes scanned.
    public let bytes: [UInt8]
    /// The members, in the order they appear.
    public let members: [Member]
    /// Whether everything in the object is known to be plain (see `JSONScanner.isPlain`, keys
    /// given twice looked for at every depth): what `PlainJSONDecoder` needs to decode it.
    let isKnownPlain: Bool
    /// The objects inside members' values that the pass which found this one scanned too
    /// (`init(_:expanding:)`), at every depth: the top level's and those found inside it carry
    /// the same ones.
    private let levels: ObjectLevels
    /// How deep this object is in the pass that scanned it (1: the object that pass scanned
    /// first, which may sit inside a larger document).
    private let depth: Int

    /// Scans `bytes` (all of them), or the object at `range` of them; `nil` when they are not
    /// one plain JSON object (see the type's summary).
    public init?(_ bytes: [UInt8], range: Range<Int>? = nil) {
        let range = range ?? 0..<bytes.count
        guard
            let members = bytes.withUnsafeBufferPointer({ buffer in
                var scanner = JSONScanner(buffer, start: range.lowerBound, end: range.upperBound)
                return scanner.topLevelObject()
            })
        else { return nil }
        self.init(bytes: bytes, members: members, isKnownPlain: false)
    }

    /// Scans all of `bytes` as `init(_:)` does, and in the same pass the objects along `path`:
    /// the value of the member `path[0]`, when it is an object, then its member `path[1]`'s,
    /// and so on; the last one is also checked plain. `expandedObject(_:)` then gives each one
    /// whose keys are plain without a second look at its bytes: a dispatch's message is read
    /// once, its action and the action's payload with it.
    init?(_ bytes: [UInt8], expanding path: [StaticString]) {
        var levels = ObjectLevels()
        guard
            let members = bytes.withUnsafeBufferPointer({ buffer in
                var scanner = JSONScanner(buffer, start: 0, end: buffer.count)
                return scanner.topLevelObject(expanding: path, into: &levels)
            })
        else { return nil }
        self.init(bytes: bytes, members: members, isKnownPlain: false, depth: 1, levels: levels)
    }

    /// The object `members` make up in `bytes`, at `depth`, with `levels` scanned inside it.
    private init(
        bytes: [UInt8], members: [Member], isKnownPlain: Bool, depth: Int = 1, levels: ObjectLevels = ObjectLevels()
    ) {
        self.bytes = bytes
        self.members = members
        self.isKnownPlain = isKnownPlain
        self.depth = depth
        self.levels = levels
    }

    /// The members of `member`'s object value, when the pass that scanned this object scanned
    /// that one too (`init(_:expanding:)`) and its keys are plain; `nil` otherwise.
    func expandedObject(_ member: Member) -> JSONObjectFields? {
        guard let level = levels.level(depth: depth + 1, start: member.value.lowerBound) else { return nil }
        return JSONObjectFields(
            bytes: bytes, members: level.members, isKnownPlain: level.isPlain, depth: depth + 1, levels: levels)
    }

    /// The members of the object that makes up all of `bytes` (or `range` of them), when it is
    /// plain JSON (see `JSONScanner.isPlain`, repeated keys looked for at every depth):
    /// `PlainJSONDecoder`'s first look, which its top-level container then reuses.
    init?(plain bytes: [UInt8], range: Range<Int>? = nil) {
        let range = range ?? 0..<bytes.count
        guard
            let members = bytes.withUnsafeBufferPointer({ buffer -> [Member]? in
                var scanner = JSONScanner(buffer, start: range.lowerBound, end: range.upperBound)
                scanner.checksNestedKeys = true
                guard let members = scanner.topLevelObject(), scanner.isPlain else { return nil }
                return members
            })
        else { return nil }
        self.init(bytes: bytes, members: members, isKnownPlain: true)
    }

    /// The plain object whose members in `bytes` a scan found already (`isKnownPlain`).
    init(bytes: [UInt8], plainMembers: [Member]) {
        self.init(bytes: bytes, members: plainMembers, isKnownPlain: true)
    }

    /// The member named `key`, if there is one.
    public func member(_ key: StaticString) -> Member? {
        let count = key.utf8CodeUnitCount
        return bytes.withUnsafeBufferPointer { buffer in
            members.first { member in
                member.key.count == count
                    && (count == 0 || memcmp(buffer.baseAddress! + member.key.lowerBound, key.utf8Start, count) == 0)
            }
        }
    }

    /// The value of `key` when it is a string without escapes; `nil` when it is absent, not a
    /// string, or a string with escapes.
    public func plainString(_ key: StaticString) -> String? {
        member(key).flatMap(plainString)
    }

    /// The value of `member` when it is a string without escapes.
    public func plainString(_ member: Member) -> String? {
        guard member.kind == .string else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            let inner = UnsafeBufferPointer(
                rebasing: buffer[(member.value.lowerBound + 1)..<(member.value.upperBound - 1)])
            guard inner.isEmpty || memchr(inner.baseAddress!, Int32(UInt8(ascii: "\\")), inner.count) == nil else {
                return nil
            }
            return String(decoding: inner, as: UTF8.self)
        }
    }

    /// The value of `key` when it is an integer written without fraction or exponent that fits
    /// an `Int64`; `nil` otherwise (absent, another kind, `1.0`, `1e3`, out of range).
    public func plainInteger(_ key: StaticString) -> Int64? {
        member(key).flatMap(plainInteger)
    }

    /// The value of `member` when it is an integer literal that fits an `Int64`.
    public func plainInteger(_ member: Member) -> Int64? {
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
            if negative {
                return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
            }
            return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
        }
    }

    /// The value of `key` as an unsigned integer (see `plainInteger`); `nil` when negative.
    public func plainUnsigned(_ key: StaticString) -> UInt64? {
        plainInteger(key).flatMap { $0 >= 0 ? UInt64($0) : nil }
    }
}
