/// The tokens of the grammar: strings (UTF-8 and escapes checked), numbers, the three
/// literals, whitespace.
extension JSONScanner {
    /// Skips a string, number or literal starting with `first` at `index`; returns its kind.
    mutating func scalar(_ first: UInt8) -> JSONObjectFields.Kind? {
        switch first {
        case UInt8(ascii: "\""): return string() == nil ? nil : .string
        case UInt8(ascii: "t"): return literal("true", .bool)
        case UInt8(ascii: "f"): return literal("false", .bool)
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return fail(.unexpectedByte(first))
        }
    }

    /// Skips a string whose opening quote is at `index`; returns its range, quotes included.
    /// The hot loop of the scanner (a 128-character text is most of a dispatch), so it keeps
    /// its position in a local and tests the common byte first.
    mutating func string() -> Range<Int>? {
        let start = index
        var position = Self.skipOrdinaryBytes(bytes, from: index + 1, to: end)
        defer { index = position }
        while position < end {
            let byte = bytes[position]
            position += 1
            // 0x20...0x7F in one comparison: below 0x20 the subtraction wraps around.
            if byte &- 0x20 < 0x60 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") { continue }
            if byte == UInt8(ascii: "\"") { return start..<position }
            if byte >= 0x80 {
                guard let next = Self.endOfUTF8Scalar(bytes, at: position - 1, end: end) else {
                    return fail(.invalidUTF8, at: position - 1)
                }
                position = next
                continue
            }
            guard byte == UInt8(ascii: "\\") else { return fail(.controlCharacter(byte), at: position - 1) }
            isPlain = false
            guard position < end else { return fail(.unexpectedEnd, at: position) }
            let escaped = bytes[position]
            position += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                continue
            case UInt8(ascii: "u"):
                guard let unit = hexQuad(at: position) else { return fail(.invalidEscape, at: position - 2) }
                position += 4
                if (0xDC00...0xDFFF).contains(unit) { return fail(.loneSurrogate, at: position - 6) }
                if (0xD800...0xDBFF).contains(unit) {
                    guard position + 6 <= end, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u"),
                        let low = hexQuad(at: position + 2), (0xDC00...0xDFFF).contains(low)
                    else { return fail(.loneSurrogate, at: position - 6) }
                    position += 6
                }
            default:
                return fail(.invalidEscape, at: position - 2)
            }
        }
        return fail(.unexpectedEnd, at: end)
    }

    /// The value of the four hex digits at `position`, if there are four.
    private func hexQuad(at position: Int) -> UInt16? {
        guard position + 4 <= end else { return nil }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = bytes[position + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// The first position from `start` (before `end`) holding a quote, a backslash, a control
    /// character or a byte above 0x7F, or `end`; eight bytes per step while none of them is one.
    private static func skipOrdinaryBytes(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        /// Whether some byte of `word` is zero (the classic bit trick; exact for "any").
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highBits != 0 }
        var position = start
        let raw = UnsafeRawBufferPointer(bytes)
        while position + 8 <= end {
            let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            // Below 0x20: some byte of (word & 0xE0E0…) is zero. Above 0x7F: a high bit is set.
            let special =
                word & highBits != 0 || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
                || hasZeroByte(word & (ones &* 0xE0))
            if special { break }
            position += 8
        }
        return position
    }

    /// The position after the UTF-8 sequence whose first byte (0x80 or above) is at
    /// `position`, or `nil` when it is not well-formed UTF-8 (RFC 3629: no continuation byte
    /// first, no overlong form, no surrogate, nothing above U+10FFFF, nothing cut short).
    private static func endOfUTF8Scalar(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> Int? {
        let count: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch bytes[position] {
        case 0xC2...0xDF: count = 2
        case 0xE0: (count, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED: (count, second) = (3, 0x80...0x9F)
        case 0xF0: (count, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: count = 4
        case 0xF4: (count, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard position + count <= end, second.contains(bytes[position + 1]) else { return nil }
        for offset in 2..<count where bytes[position + offset] & 0xC0 != 0x80 { return nil }
        return position + count
    }

    /// Skips a number: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, and not followed by
    /// another digit (`01`).
    private mutating func number() -> JSONObjectFields.Kind? {
        let numberStart = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), Self.isDigit(first) else { return fail(.invalidNumber, at: numberStart) }
        index += 1
        if first == UInt8(ascii: "0") {
            if let next = peek(), Self.isDigit(next) { return fail(.invalidNumber, at: numberStart) }
        } else {
            skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            isPlain = false
            index += 1
            guard let digit = peek(), Self.isDigit(digit) else { return fail(.invalidNumber, at: numberStart) }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isPlain = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek(), Self.isDigit(digit) else { return fail(.invalidNumber, at: numberStart) }
            skipDigits()
        }
        return .number
    }

    /// Skips `word` (`true`, `false`, `null`) if it is next, which is a value of `kind`.
    private mutating func literal(_ word: StaticString, _ kind: JSONObjectFields.Kind) -> JSONObjectFields.Kind? {
        for offset in 0..<word.utf8CodeUnitCount {
            guard index + offset < end else { return fail(.unexpectedEnd, at: end) }
            let byte = bytes[index + offset]
            if byte != word.utf8Start[offset] { return fail(.unexpectedByte(byte), at: index + offset) }
        }
        index += word.utf8CodeUnitCount
        return kind
    }

    /// Skips the digits at `index`.
    private mutating func skipDigits() {
        while let byte = peek(), Self.isDigit(byte) { index += 1 }
    }

    /// Skips JSON whitespace (space, tab, line feed, carriage return).
    @inline(__always)
    mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    /// The byte at `index`, or `nil` at the end.
    @inline(__always)
    func peek() -> UInt8? {
        index < end ? bytes[index] : nil
    }

    /// Whether `byte` is `0`–`9`.
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
