/// JSON strings as `PlainJSONEncoder` writes them: printable ASCII only, where a `"` or `\` is
/// escaped with a backslash, as `JSONEncoder` does, and nothing else needs escaping.
enum PlainJSONString {
    /// Appends `text` as a JSON string, or throws when it is not printable ASCII.
    static func append(_ text: String, to bytes: inout [UInt8]) throws(PlainJSONEncoder.Unsupported) {
        var text = text
        let plain = text.withUTF8 { utf8 in
            guard isPlain(utf8) else { return false }
            bytes.reserveCapacity(bytes.count + utf8.count + 2)
            bytes.append(UInt8(ascii: "\""))
            var start = 0
            for (index, byte) in utf8.enumerated() where needsEscape(byte) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                bytes.append(UInt8(ascii: "\\"))
                start = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        guard plain else { throw PlainJSONEncoder.Unsupported() }
    }

    /// How many bytes `write` takes for `text`, or throws when it is not printable ASCII.
    static func encodedCount(_ text: String) throws(PlainJSONEncoder.Unsupported) -> Int {
        var text = text
        let count = text.withUTF8 { utf8 -> Int? in
            guard isPlain(utf8) else { return nil }
            return utf8.reduce(utf8.count + 2) { $0 + (needsEscape($1) ? 1 : 0) }
        }
        guard let count else { throw PlainJSONEncoder.Unsupported() }
        return count
    }

    /// Writes `text`, which `encodedCount` took, as a JSON string at `output`; returns how many
    /// bytes it wrote.
    static func write(_ text: String, to output: UnsafeMutablePointer<UInt8>) -> Int {
        var text = text
        return text.withUTF8 { utf8 in
            var position = output
            position.pointee = UInt8(ascii: "\"")
            position += 1
            for byte in utf8 {
                if needsEscape(byte) {
                    position.pointee = UInt8(ascii: "\\")
                    position += 1
                }
                position.pointee = byte
                position += 1
            }
            position.pointee = UInt8(ascii: "\"")
            return position + 1 - output
        }
    }

    /// Whether every byte is printable ASCII.
    private static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Whether `byte` is written after a backslash.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}
