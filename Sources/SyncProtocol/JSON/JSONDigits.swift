/// Integers as JSON numbers, written digit by digit: `String(value).utf8` makes a string and
/// then an array for every integer of every snapshot and action the daemon encodes.
public enum JSONDigits {
    /// The decimal digits of `value`, with a leading `-` when it is negative.
    @inlinable
    public static func decimal(_ value: some BinaryInteger) -> [UInt8] {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return bytes
    }

    /// Appends the decimal digits of `value`, with a leading `-` when it is negative. Inlinable,
    /// so that callers in other modules get it specialised for their integer type.
    @inlinable
    public static func append(_ value: some BinaryInteger, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendMagnitude(UInt64(value.magnitude), to: &bytes)
    }

    /// Appends the digits of `magnitude`: written lowest first, then turned around in place.
    @usableFromInline
    static func appendMagnitude(_ magnitude: UInt64, to bytes: inout [UInt8]) {
        let start = bytes.count
        var rest = magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        var low = start
        var high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    /// The most bytes `write(_:at:)` writes: the 20 digits of `UInt64.max` (`Int64.min` takes
    /// 20 with its sign).
    static let maximumWrittenCount = 20

    /// Writes the decimal digits of `value` (a leading `-` when it is negative) at `start`, which
    /// has room for `maximumWrittenCount` bytes; returns how many it wrote. For frames built
    /// through a pointer, where an array's append would check its capacity for every digit.
    static func write(_ value: Int64, at start: UnsafeMutablePointer<UInt8>) -> Int {
        guard value < 0 else { return write(UInt64(value), at: start) }
        start.pointee = UInt8(ascii: "-")
        return 1 + write(value.magnitude, at: start + 1)
    }

    /// `write(_:at:)` for an unsigned value.
    static func write(_ magnitude: UInt64, at start: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 1
        var rest = magnitude / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        rest = magnitude
        var position = count
        repeat {
            position -= 1
            start[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while position > 0
        return count
    }
}
