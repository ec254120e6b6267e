/// JSON strings as `PlainJSONEncoder` writes them: printable ASCII only, where a `"` or `\` is
/// escaped with a backslash, as `JSONEncoder` does, and nothing else needs escaping.
enum PlainJSONString {
    /// Appends `text` as a JSON string, or throws when it is not printable ASCII.
    static func append(_ text: String, to bytes: inout [UInt8]) throws(PlainJSONEncoder.Unsupported) {
        var text = text
        let plain = text.withUTF8 { utf8 in
            guard let escapes = PrintableASCII.quotesAndBackslashes(in: utf8) else { return false }
            bytes.append(UInt8(ascii: "\""))
            if escapes == 0 {
                bytes.append(contentsOf: utf8)
            } else {
                // The runs between the bytes to escape, each appended at once (byte by byte, a
                // summary of an edit, quotes around a 128-character text, took 4,000 instructions).
                var runStart = 0
                for index in utf8.indices where PrintableASCII.isQuoteOrBackslash(utf8[index]) {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                    bytes.append(UInt8(ascii: "\\"))
                    runStart = index
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
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
            PrintableASCII.quotesAndBackslashes(in: utf8).map { utf8.count + 2 + $0 }
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
                if PrintableASCII.isQuoteOrBackslash(byte) {
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
}
