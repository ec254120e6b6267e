/// The identifier acceptance drew for an action the journal keeps as it was received: what,
/// with the entry's acceptance time, lets a replay accept it again exactly as the first time.
///
/// Sixteen bytes (a UUID's), written as the canonical lowercase text
/// (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`) in the journal's columns.
public struct AcceptanceIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// Bytes 0–7, big-endian.
    public var high: UInt64
    /// Bytes 8–15, big-endian.
    public var low: UInt64

    /// The identifier of these two halves.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The identifier written as `text`, with or without its four dashes, in either case;
    /// `nil` for anything else.
    public init?(text: some Collection<UInt8>) {
        var value: (high: UInt64, low: UInt64) = (0, 0)
        var digits = 0
        for (offset, byte) in text.enumerated() {
            if byte == UInt8(ascii: "-") && text.count == 36 && Self.dashOffsets.contains(offset) { continue }
            guard let digit = Self.digit(byte), digits < 32 else { return nil }
            if digits < 16 { value.high = value.high << 4 | digit } else { value.low = value.low << 4 | digit }
            digits += 1
        }
        guard digits == 32 else { return nil }
        self.init(high: value.high, low: value.low)
    }

    /// The sixteen bytes, in order.
    public var bytes: [UInt8] {
        (0..<16).map { index in UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> (56 - 8 * UInt64(index % 8))) }
    }

    /// The canonical text, handed to `body` from the stack (binding a column costs no allocation).
    public func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { buffer in
            let text = buffer.baseAddress!
            // The five groups of 8, 4, 4, 4 and 12 digits, each written without a check per digit.
            Self.writeHex(high >> 32, digits: 8, to: text)
            text[8] = UInt8(ascii: "-")
            Self.writeHex(high >> 16, digits: 4, to: text + 9)
            text[13] = UInt8(ascii: "-")
            Self.writeHex(high, digits: 4, to: text + 14)
            text[18] = UInt8(ascii: "-")
            Self.writeHex(low >> 48, digits: 4, to: text + 19)
            text[23] = UInt8(ascii: "-")
            Self.writeHex(low, digits: 12, to: text + 24)
            return body(UnsafeBufferPointer(buffer))
        }
    }

    /// Writes the lowest `digits` hexadecimal digits of `value` at `start`, most significant first.
    private static func writeHex(_ value: UInt64, digits: Int, to start: UnsafeMutablePointer<UInt8>) {
        var rest = value
        var offset = digits
        while offset > 0 {
            offset -= 1
            start[offset] = hexDigit(UInt8(truncatingIfNeeded: rest) & 0xF)
            rest >>= 4
        }
    }

    /// The canonical text.
    public var description: String { withText { String(decoding: $0, as: UTF8.self) } }

    /// The lowercase hexadecimal digit of `value` (0–15): computed, not looked up in a global
    /// table, whose every read was a check that it was made (32 per identifier written).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private static let dashOffsets: Set = [8, 13, 18, 23]

    private static func digit(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt64(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
