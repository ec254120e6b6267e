/// A strict RFC 8259 reader written for the fuzz targets only, independently of the project's
/// `JSONScanner` (recursive descent over decoded Unicode scalars, where the scanner skips bytes
/// with range checks), with the same two limits the wire sets: at most 512 nested arrays and
/// objects, and `\u` surrogates only in pairs. It is the reference the differential targets
/// compare the project's readers with: a verdict, and a value that keeps each number's literal.
public enum ReferenceJSON {
    /// A parsed value. Objects keep their members in order, repeated keys included.
    public indirect enum Value: Equatable, Sendable {
        case null
        case bool(Bool)
        /// A number, as written.
        case number(String)
        case string(String)
        case array([Value])
        case object([(key: String, value: Value)])

        public static func == (left: Value, right: Value) -> Bool {
            switch (left, right) {
            case (.null, .null): return true
            case (.bool(let a), .bool(let b)): return a == b
            case (.number(let a), .number(let b)): return a == b
            case (.string(let a), .string(let b)): return a == b
            case (.array(let a), .array(let b)): return a == b
            case (.object(let a), .object(let b)):
                return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: return false
            }
        }

        /// The first member named `key`, if this is an object that has one.
        public subscript(key: String) -> Value? {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.key == key }?.value
        }
    }

    /// A parse: the value, and whether the text is plain (no escape in any string or key, no
    /// number with a fraction or an exponent, no key given twice in any object).
    public struct Parsed: Sendable {
        public let value: Value
        public let isPlain: Bool
    }

    /// The value of `bytes`, or `nil` when they are not one JSON text.
    public static func parse(_ bytes: [UInt8]) -> Parsed? {
        var parser = Parser(bytes: bytes)
        parser.skipSpace()
        guard let value = parser.value(depth: 1) else { return nil }
        parser.skipSpace()
        guard parser.position == bytes.count else { return nil }
        return Parsed(value: value, isPlain: parser.isPlain)
    }

    /// Whether `literal` (a valid JSON number) has no fraction and no exponent.
    public static func isIntegerLiteral(_ literal: String) -> Bool {
        !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0
        var isPlain = true

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        func next() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func value(depth: Int) -> Value? {
            switch next() {
            case UInt8(ascii: "{"): return depth > 512 ? nil : object(depth: depth)
            case UInt8(ascii: "["): return depth > 512 ? nil : array(depth: depth)
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return word("true", .bool(true))
            case UInt8(ascii: "f"): return word("false", .bool(false))
            case UInt8(ascii: "n"): return word("null", .null)
            case .some(let byte)
            where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte): return number()
            default: return nil
            }
        }

        mutating func word(_ text: String, _ value: Value) -> Value? {
            let expected = Array(text.utf8)
            guard position + expected.count <= bytes.count,
                Array(bytes[position..<position + expected.count]) == expected
            else { return nil }
            position += expected.count
            return value
        }

        mutating func array(depth: Int) -> Value? {
            position += 1
            var elements: [Value] = []
            skipSpace()
            if next() == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipSpace()
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipSpace()
                switch next() {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    return .array(elements)
                default: return nil
                }
            }
        }

        mutating func object(depth: Int) -> Value? {
            position += 1
            var members: [(key: String, value: Value)] = []
            skipSpace()
            if next() == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard next() == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard next() == UInt8(ascii: ":") else { return nil }
                position += 1
                skipSpace()
                guard let member = value(depth: depth + 1) else { return nil }
                if members.contains(where: { $0.key == key }) { isPlain = false }
                members.append((key, member))
                skipSpace()
                switch next() {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"):
                    position += 1
                    return .object(members)
                default: return nil
                }
            }
        }

        mutating func number() -> Value? {
            let start = position
            func digits() -> Int {
                let from = position
                while let byte = next(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
                return position - from
            }
            if next() == UInt8(ascii: "-") { position += 1 }
            if next() == UInt8(ascii: "0") {
                position += 1
            } else if digits() == 0 {
                return nil
            }
            if next() == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { return nil }
                isPlain = false
            }
            if next() == UInt8(ascii: "e") || next() == UInt8(ascii: "E") {
                position += 1
                if next() == UInt8(ascii: "+") || next() == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { return nil }
                isPlain = false
            }
            return .number(String(decoding: bytes[start..<position], as: UTF8.self))
        }

        /// A string at `position` (its opening quote), decoded.
        mutating func string() -> String? {
            position += 1
            var scalars = String.UnicodeScalarView()
            while let byte = next() {
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    isPlain = false
                    guard let scalar = escape() else { return nil }
                    scalars.append(scalar)
                case 0x00..<0x20:
                    return nil
                default:
                    guard let scalar = utf8Scalar() else { return nil }
                    scalars.append(scalar)
                }
            }
            return nil
        }

        /// The escape at `position` (its backslash).
        mutating func escape() -> Unicode.Scalar? {
            guard position + 1 < bytes.count else { return nil }
            let letter = bytes[position + 1]
            position += 2
            let simple: [UInt8: Unicode.Scalar] = [
                UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/", UInt8(ascii: "b"): "\u{8}",
                UInt8(ascii: "f"): "\u{C}", UInt8(ascii: "n"): "\n", UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
            ]
            if let scalar = simple[letter] { return scalar }
            guard letter == UInt8(ascii: "u"), let first = hex() else { return nil }
            switch first {
            case 0xD800...0xDBFF:
                guard next() == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
                else { return nil }
                position += 2
                guard let second = hex(), (0xDC00...0xDFFF).contains(second) else { return nil }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            case 0xDC00...0xDFFF:
                return nil
            default:
                return Unicode.Scalar(first)
            }
        }

        mutating func hex() -> UInt32? {
            guard position + 4 <= bytes.count,
                let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
                bytes[position..<position + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
            else { return nil }
            position += 4
            return value
        }

        /// The UTF-8 scalar at `position`, by its value: the shortest form only, no surrogate,
        /// nothing above U+10FFFF.
        mutating func utf8Scalar() -> Unicode.Scalar? {
            let lead = bytes[position]
            let (count, initial): (Int, UInt32)
            switch lead {
            case 0x00..<0x80: (count, initial) = (1, UInt32(lead))
            case 0xC0..<0xE0: (count, initial) = (2, UInt32(lead & 0x1F))
            case 0xE0..<0xF0: (count, initial) = (3, UInt32(lead & 0x0F))
            case 0xF0..<0xF8: (count, initial) = (4, UInt32(lead & 0x07))
            default: return nil
            }
            guard position + count <= bytes.count else { return nil }
            var value = initial
            for offset in 1..<max(count, 1) {
                let byte = bytes[position + offset]
                guard byte >> 6 == 0b10 else { return nil }
                value = value << 6 | UInt32(byte & 0x3F)
            }
            let shortest: UInt32 = [0, 0, 0x80, 0x800, 0x10000][count]
            guard value >= shortest, let scalar = Unicode.Scalar(value) else { return nil }
            position += count
            return scalar
        }
    }
}
