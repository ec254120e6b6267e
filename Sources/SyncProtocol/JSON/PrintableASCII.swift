/// Checks of UTF-8 bytes for printable ASCII (0x20 to 0x7E), eight bytes at a time with the
/// tests for a byte below or above a bound, or equal to one, from "Bit Twiddling Hacks" (each
/// exact for "some byte of the word"): texts are checked once per action applied and per
/// string encoded, and byte by byte that was up to 50 instructions per byte.
public enum PrintableASCII {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether every byte of `bytes` is printable ASCII.
    public static func contains(only bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var position = 0
        while position + 8 <= bytes.count {
            guard isPrintable(raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)) else { return false }
            position += 8
        }
        return bytes[position...].allSatisfy(isPrintable)
    }

    /// How many bytes of `bytes` are `"` or `\` (what a JSON string escapes), or `nil` when
    /// some byte is not printable ASCII.
    static func quotesAndBackslashes(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let raw = UnsafeRawBufferPointer(bytes)
        var count = 0
        var position = 0
        while position + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            guard isPrintable(word) else { return nil }
            if hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C)) {
                count += bytes[position..<(position + 8)].reduce(0) { $0 + (isQuoteOrBackslash($1) ? 1 : 0) }
            }
            position += 8
        }
        for byte in bytes[position...] {
            guard isPrintable(byte) else { return nil }
            if isQuoteOrBackslash(byte) { count += 1 }
        }
        return count
    }

    /// Whether `byte` is `"` or `\`.
    static func isQuoteOrBackslash(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func isPrintable(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F
    }

    /// Whether no byte of `word` is below 0x20 or above 0x7E.
    private static func isPrintable(_ word: UInt64) -> Bool {
        let below = (word &- ones &* 0x20) & ~word & highBits
        let above = ((word &+ ones) | word) & highBits
        return below | above == 0
    }

    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- ones) & ~word & highBits != 0
    }
}
