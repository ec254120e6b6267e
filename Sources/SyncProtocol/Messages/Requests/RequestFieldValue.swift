#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A type a request field may have: how it is scanned on the fast path, decoded on the slow
/// one and written.
public protocol RequestFieldValue: Sendable, Equatable {
    /// The value of `member` when it is plain (see `JSONObjectFields`); `nil` leaves the whole
    /// request to the reference decoder.
    static func scan(_ member: JSONObjectFields.Member, in fields: JSONObjectFields) -> Self?
    /// The value of `key`, `nil` when it is absent or `null`; a value of another type throws.
    static func decode(
        _ key: RequestKey, from container: KeyedDecodingContainer<RequestKey>, refusing nonIntegers: Set<String>
    ) throws -> Self?
    /// Appends the value's JSON.
    func write(to bytes: inout [UInt8])
    /// Whether a `defaulted` field with this value is left out of the message.
    var isOmitted: Bool { get }
}

extension RequestFieldValue {
    /// Always written.
    public var isOmitted: Bool { false }
}

/// Integers: written as integer literals that fit an `Int64` (`1.0`, `1e2` and `1.5` are not
/// integers, though `JSONDecoder` would read the first two as such).
extension RequestFieldValue where Self: SignedInteger & FixedWidthInteger {
    /// An integer literal that fits (see `JSONObjectFields.plainInteger`).
    public static func scan(_ member: JSONObjectFields.Member, in fields: JSONObjectFields) -> Self? {
        fields.plainInteger(member).flatMap(Self.init(exactly:))
    }

    /// An integer; a number with a fraction or an exponent (a key in `nonIntegers`) is a type
    /// mismatch.
    public static func decode(
        _ key: RequestKey, from container: KeyedDecodingContainer<RequestKey>, refusing nonIntegers: Set<String>
    ) throws -> Self? {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        guard !nonIntegers.contains(key.stringValue), let value = try? container.decode(Int64.self, forKey: key),
            let integer = Self(exactly: value)
        else {
            throw DecodingError.typeMismatch(
                Self.self, .init(codingPath: container.codingPath + [key], debugDescription: "not an integer"))
        }
        return integer
    }

    /// The decimal digits.
    public func write(to bytes: inout [UInt8]) { bytes += String(self).utf8 }
}

extension Int64: RequestFieldValue {}

extension Int: RequestFieldValue {}

extension String: RequestFieldValue {
    /// A string without escapes.
    public static func scan(_ member: JSONObjectFields.Member, in fields: JSONObjectFields) -> String? {
        fields.plainString(member)
    }

    /// A string.
    public static func decode(
        _ key: RequestKey, from container: KeyedDecodingContainer<RequestKey>, refusing nonIntegers: Set<String>
    ) throws -> String? {
        try container.decodeIfPresent(String.self, forKey: key)
    }

    /// The string, escaped as `WireJSON` escapes it.
    public func write(to bytes: inout [UInt8]) {
        do {
            try WireJSON.appendString(self, to: &bytes)
        } catch {
            preconditionFailure("JSONEncoder writes every string: \(error)")
        }
    }
}

extension Array: RequestFieldValue where Element == String {
    /// Never plain: a list of strings is decoded (it comes once per connection, in `hello`).
    public static func scan(_ member: JSONObjectFields.Member, in fields: JSONObjectFields) -> [String]? { nil }

    /// A list of strings.
    public static func decode(
        _ key: RequestKey, from container: KeyedDecodingContainer<RequestKey>, refusing nonIntegers: Set<String>
    ) throws -> [String]? {
        try container.decodeIfPresent([String].self, forKey: key)
    }

    /// The strings, escaped.
    public func write(to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, text) in enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            text.write(to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An empty list means none.
    public var isOmitted: Bool { isEmpty }
}

/// A request field's name, as the reference decoder looks it up.
public struct RequestKey: CodingKey {
    /// The wire name.
    public let stringValue: String
    /// Never an index.
    public let intValue: Int? = nil

    /// The key named `stringValue`.
    public init(stringValue: String) { self.stringValue = stringValue }

    /// Keys are names only.
    public init?(intValue: Int) { nil }

    init(_ name: StaticString) { stringValue = name.description }
}
