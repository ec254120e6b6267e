/// Integers as JSON numbers, written digit by digit: `String(value).utf8` makes a string and
/// then an array for every integer of every snapshot and action the daemon encodes.
public enum JSONDigits {
    /// The decimal digits of `value`, with a leading `-` when it is negative.
    public static func decimal(_ value: some BinaryInteger) -> [UInt8] {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return bytes
    }

    /// Appends the decimal digits of `value`, with a leading `-` when it is negative.
    public static func append(_ value: some BinaryInteger, to bytes: inout [UInt8]) {
        var magnitude = UInt64(value.magnitude)
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        guard magnitude > 0 else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        let start = bytes.count
        while magnitude > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        bytes[start...].reverse()
    }
}
