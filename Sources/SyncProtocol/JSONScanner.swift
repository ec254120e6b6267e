/// The syntax checker behind `JSONObjectFields`: walks RFC 8259 JSON over a byte buffer,
/// recording the top-level object's members and skipping everything inside them. Every method
/// returns `nil` (or `false`) on anything it does not accept, and the caller gives up.
struct JSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int
    private let end: Int
    /// Whether every string scanned so far had no escape, every number was an integer without
    /// fraction or exponent, and no nested object named a key twice: what `PlainJSONDecoder`
    /// needs to decode exactly as `JSONDecoder` would. (Duplicate keys are only looked for
    /// when `checksNestedKeys` is set.)
    private(set) var isPlain = true
    /// Whether nested objects are checked for duplicate keys (see `isPlain`).
    var checksNestedKeys = false

    /// A scanner of `bytes[start..<end]`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        self.bytes = bytes
        index = start
        self.end = end
    }

    /// The members of the object that makes up the whole range (whitespace around it allowed);
    /// `nil` if it is not one, or a key has escapes or appears twice.
    mutating func topLevelObject() -> [JSONObjectFields.Member]? {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { return nil }
        index += 1
        var members: [JSONObjectFields.Member] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\""), let key = string(), !hasBackslash(key) else { return nil }
                let inner = (key.lowerBound + 1)..<(key.upperBound - 1)
                if members.contains(where: { equal($0.key, inner) }) { return nil }
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { return nil }
                index += 1
                skipWhitespace()
                let start = index
                guard let kind = value(depth: 1) else { return nil }
                members.append(.init(key: inner, value: start..<index, kind: kind))
                skipWhitespace()
                guard let next = peek() else { return nil }
                index += 1
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else { return nil }
            }
        }
        skipWhitespace()
        return index == end ? members : nil
    }

    /// The elements of the array that makes up the whole range (whitespace around it allowed);
    /// `nil` if it is not one.
    mutating func topLevelArray() -> [(value: Range<Int>, kind: JSONObjectFields.Kind)]? {
        skipWhitespace()
        guard peek() == UInt8(ascii: "[") else { return nil }
        index += 1
        var elements: [(value: Range<Int>, kind: JSONObjectFields.Kind)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                let start = index
                guard let kind = value(depth: 1) else { return nil }
                elements.append((start..<index, kind))
                skipWhitespace()
                guard let next = peek() else { return nil }
                index += 1
                if next == UInt8(ascii: "]") { break }
                guard next == UInt8(ascii: ",") else { return nil }
            }
        }
        skipWhitespace()
        return index == end ? elements : nil
    }

    /// The kind of the one value that makes up the whole range (whitespace around it allowed);
    /// `nil` if it is not one value.
    mutating func topLevelValue() -> (value: Range<Int>, kind: JSONObjectFields.Kind)? {
        skipWhitespace()
        let start = index
        guard let kind = value(depth: 1) else { return nil }
        let valueEnd = index
        skipWhitespace()
        return index == end ? (start..<valueEnd, kind) : nil
    }

    /// Skips one value starting at `index`; returns its kind.
    private mutating func value(depth: Int) -> JSONObjectFields.Kind? {
        guard depth <= JSONObjectFields.maximumDepth, let first = peek() else { return nil }
        switch first {
        case UInt8(ascii: "\""):
            return string() == nil ? nil : .string
        case UInt8(ascii: "{"):
            return container(closing: UInt8(ascii: "}"), keyed: true, depth: depth) ? .object : nil
        case UInt8(ascii: "["):
            return container(closing: UInt8(ascii: "]"), keyed: false, depth: depth) ? .array : nil
        case UInt8(ascii: "t"):
            return literal("true") ? .bool : nil
        case UInt8(ascii: "f"):
            return literal("false") ? .bool : nil
        case UInt8(ascii: "n"):
            return literal("null") ? .null : nil
        default:
            return number() ? .number : nil
        }
    }

    /// Skips an object or array whose opening bracket is at `index`.
    private mutating func container(closing: UInt8, keyed: Bool, depth: Int) -> Bool {
        var keys: [Range<Int>] = []
        index += 1
        skipWhitespace()
        if peek() == closing {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            if keyed {
                guard peek() == UInt8(ascii: "\""), let key = string() else { return false }
                if checksNestedKeys {
                    if keys.contains(where: { equal($0, key) }) { isPlain = false }
                    keys.append(key)
                }
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { return false }
                index += 1
                skipWhitespace()
            }
            guard value(depth: depth + 1) != nil else { return false }
            skipWhitespace()
            guard let next = peek() else { return false }
            index += 1
            if next == closing { return true }
            guard next == UInt8(ascii: ",") else { return false }
        }
    }

    /// Skips a string whose opening quote is at `index`; returns its range, quotes included.
    /// The hot loop of the scanner (a 128-character text is most of a dispatch), so it keeps
    /// its position in a local and tests the common byte first.
    private mutating func string() -> Range<Int>? {
        let start = index
        var position = Self.skipOrdinaryBytes(bytes, from: index + 1, to: end)
        defer { index = position }
        while position < end {
            let byte = bytes[position]
            position += 1
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") { continue }
            if byte == UInt8(ascii: "\"") { return start..<position }
            guard byte == UInt8(ascii: "\\"), position < end else { return nil }
            isPlain = false
            let escaped = bytes[position]
            position += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                continue
            case UInt8(ascii: "u"):
                guard position + 4 <= end, (position..<position + 4).allSatisfy({ Self.isHexDigit(bytes[$0]) }) else { return nil }
                position += 4
            default:
                return nil
            }
        }
        return nil
    }

    /// The first position from `start` (before `end`) holding a quote, a backslash or a
    /// control character, or `end`; eight bytes per step while none of them is one.
    private static func skipOrdinaryBytes(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        /// Whether some byte of `word` is zero (the classic bit trick; exact for "any").
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highBits != 0 }
        var position = start
        let raw = UnsafeRawBufferPointer(bytes)
        while position + 8 <= end {
            let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            // Below 0x20: some byte of (word & 0xE0E0…) is zero.
            let special = hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C)) || hasZeroByte(word & (ones &* 0xE0))
            if special { break }
            position += 8
        }
        return position
    }

    /// Skips a number: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func number() -> Bool {
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), Self.isDigit(first) else { return false }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            isPlain = false
            index += 1
            guard let digit = peek(), Self.isDigit(digit) else { return false }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isPlain = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek(), Self.isDigit(digit) else { return false }
            skipDigits()
        }
        return true
    }

    /// Skips `word` (`true`, `false`, `null`) if it is next.
    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= end else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// Skips the digits at `index`.
    private mutating func skipDigits() {
        while let byte = peek(), Self.isDigit(byte) { index += 1 }
    }

    /// Skips JSON whitespace (space, tab, line feed, carriage return).
    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    /// The byte at `index`, or `nil` at the end.
    private func peek() -> UInt8? {
        index < end ? bytes[index] : nil
    }

    /// Whether `range` holds a backslash (a key with an escape).
    private func hasBackslash(_ range: Range<Int>) -> Bool {
        range.contains { bytes[$0] == UInt8(ascii: "\\") }
    }

    /// Whether two ranges hold the same bytes.
    private func equal(_ left: Range<Int>, _ right: Range<Int>) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy { bytes[$0] == bytes[$1] }
    }

    /// Whether `byte` is `0`–`9`.
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Whether `byte` is `0`–`9`, `a`–`f` or `A`–`F`.
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }
}
