/// JSON strings as `PlainJSONEncoder` writes them: printable ASCII only, where a `"` or `\` is
/// escaped with a backslash, as `JSONEncoder` does, and nothing else needs escaping.
enum PlainJSONString {
    /// Appends `text` as a JSON string, or throws when it is not printable ASCII.
    static func append(_ text: String, to bytes: inout [UInt8]) throws(PlainJSONEncoder.Unsupported) {
        var text = text
        let plain = text.withUTF8 { utf8 in
            var escapes = 0
            for byte in utf8 {
                guard byte >= 0x20 && byte < 0x7F else { return false }
                if needsEscape(byte) { escapes += 1 }
            }
            bytes.append(UInt8(ascii: "\""))
            if escapes == 0 {
                bytes.append(contentsOf: utf8)
            } else {
                for byte in utf8 {
                    if needsEscape(byte) { bytes.append(UInt8(ascii: "\\")) }
                    bytes.append(byte)
                }
            }
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
