import Testing

@testable import SyncProtocol

/// `PrintableASCII`, eight bytes at a time, against the byte-by-byte definitions: every byte
/// value at every place of texts long enough for whole words and a tail.
@Suite struct PrintableASCIITests {
    @Test func everyByteAtEveryPlaceIsJudgedAsItsValueSays() {
        for length in [0, 1, 7, 8, 9, 16, 19] {
            let printable = [UInt8](repeating: UInt8(ascii: "m"), count: length)
            #expect(printable.withUnsafeBufferPointer(PrintableASCII.contains(only:)), "length \(length)")
            #expect(printable.withUnsafeBufferPointer(PrintableASCII.quotesAndBackslashes(in:)) == 0)
            for place in 0..<length {
                for value in UInt8.min...UInt8.max {
                    var bytes = printable
                    bytes[place] = value
                    let isPrintable = (0x20...0x7E).contains(value)
                    let escaped = value == UInt8(ascii: "\"") || value == UInt8(ascii: "\\") ? 1 : 0
                    #expect(
                        bytes.withUnsafeBufferPointer(PrintableASCII.contains(only:)) == isPrintable,
                        "byte \(value) at \(place) of \(length)")
                    #expect(
                        bytes.withUnsafeBufferPointer(PrintableASCII.quotesAndBackslashes(in:))
                            == (isPrintable ? escaped : nil), "byte \(value) at \(place) of \(length)")
                }
            }
        }
    }

    @Test func quotesAndBackslashesAreCountedInWordsAndTails() {
        let text = Array(#"a"b\c"d\\e"f"g"#.utf8) + Array(#"\"\"\"\"\"\"\"\""#.utf8)
        let expected = text.filter { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }.count
        #expect(text.withUnsafeBufferPointer(PrintableASCII.quotesAndBackslashes(in:)) == expected)
    }
}
