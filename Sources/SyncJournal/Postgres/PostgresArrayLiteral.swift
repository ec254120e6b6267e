/// PostgreSQL array literals in the text format (`{"a","b",NULL}`), for binding a batch as typed
/// arrays in one statement instead of a JSON text the server reads field by field.
///
/// Every element that is not NULL is quoted, with `"` and `\` escaped by a backslash, so any
/// text (JSON included) passes unchanged; `bytea` elements are written as `\x` and hex digits.
enum PostgresArrayLiteral {
    /// A `text[]` literal.
    static func text<S: Sequence>(_ values: S) -> String where S.Element == String? {
        var literal: [UInt8] = [UInt8(ascii: "{")]
        for (index, value) in values.enumerated() {
            if index > 0 { literal.append(UInt8(ascii: ",")) }
            guard let value else {
                literal.append(contentsOf: "NULL".utf8)
                continue
            }
            literal.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { literal.append(UInt8(ascii: "\\")) }
                literal.append(byte)
            }
            literal.append(UInt8(ascii: "\""))
        }
        literal.append(UInt8(ascii: "}"))
        return String(decoding: literal, as: UTF8.self)
    }

    /// A `bigint[]` (or `integer[]`) literal.
    static func integers<S: Sequence>(_ values: S) -> String where S.Element == Int64? {
        "{" + values.map { $0.map(String.init) ?? "NULL" }.joined(separator: ",") + "}"
    }

    /// A `bytea[]` literal.
    static func bytes<S: Sequence>(_ values: S) -> String where S.Element == [UInt8] {
        // In a quoted element a backslash escapes the next character, so `\x` is written `\\x`.
        "{" + values.map { "\"\\\\x" + LogChain.hex($0) + "\"" }.joined(separator: ",") + "}"
    }
}
