/// Why some bytes are not one JSON text as RFC 8259 defines it (UTF-8, nothing before or after
/// the value), and where the first fault is: what `JSONScanner` reports and `invalid_json`
/// errors say.
///
/// Two limits go beyond the grammar, as RFC 8259 allows: nesting is at most
/// `JSONSyntaxError.maximumDepth` arrays and objects deep, and a `\u` escape of a UTF-16
/// surrogate must be one half of a pair (RFC 8259 section 8.2 leaves lone surrogates to the
/// reader; I-JSON, RFC 7493, forbids them, and a Swift `String` cannot hold one).
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Equatable, Sendable {
        /// The bytes end inside a value, or hold no value at all.
        case unexpectedEnd
        /// A byte that cannot come here (a stray character, a missing comma or colon).
        case unexpectedByte(UInt8)
        /// A comma right before a closing bracket or brace.
        case trailingComma
        /// More than whitespace after the value.
        case trailingContent
        /// A control character (below U+0020) written raw inside a string.
        case controlCharacter(UInt8)
        /// A backslash followed by something other than `" \ / b f n r t` or `u` and four hex digits.
        case invalidEscape
        /// A `\u` escape of a surrogate that is not one half of a pair.
        case loneSurrogate
        /// Bytes inside a string that are not UTF-8.
        case invalidUTF8
        /// A number that breaks `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
        case invalidNumber
        /// Arrays and objects nested deeper than `maximumDepth`.
        case tooDeep
    }

    /// The deepest nesting of arrays and objects accepted (`JSONDecoder` on this toolchain
    /// refuses deeper ones too).
    public static let maximumDepth = 512

    /// What is wrong.
    public let reason: Reason
    /// Where, in bytes from the start of the text.
    public let offset: Int

    /// The fault `reason` found at `offset`.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The fault and where it is, in a few words (`a trailing comma at byte 21`).
    public var description: String {
        let what: String
        switch reason {
        case .unexpectedEnd: what = "the text ends early"
        case .unexpectedByte(let byte): what = "unexpected \(Self.name(of: byte))"
        case .trailingComma: what = "a trailing comma"
        case .trailingContent: what = "more after the value"
        case .controlCharacter(let byte): what = "a raw control character (\(Self.hex(byte))) in a string"
        case .invalidEscape: what = "an invalid escape"
        case .loneSurrogate: what = "an unpaired surrogate escape"
        case .invalidUTF8: what = "invalid UTF-8"
        case .invalidNumber: what = "a malformed number"
        case .tooDeep: what = "nesting deeper than \(Self.maximumDepth)"
        }
        return "\(what) at byte \(offset)"
    }

    /// A byte as an error message shows it: printable ASCII quoted, anything else in hex.
    private static func name(of byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : hex(byte)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
