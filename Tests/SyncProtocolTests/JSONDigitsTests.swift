import Testing

@testable import SyncProtocol

/// Integers written digit by digit read as `String(value)` does, at the edges of every width.
@Suite struct JSONDigitsTests {
    @Test func edgesOfEveryWidthMatchTheStandardLibrary() {
        func check(_ value: some BinaryInteger) {
            #expect(JSONDigits.decimal(value) == Array(String(value).utf8))
        }
        for value in [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min] { check(value) }
        for value in [Int64.min, Int64.max, Int64(-1)] { check(value) }
        for value in [UInt64.max, UInt64(0), UInt64(10_000_000_000_000_000_000)] { check(value) }
        for value in [Int8.min, Int8.max] { check(value) }
        for value in [UInt8.max, UInt8(0)] { check(value) }
        for value in [Int32.min, Int32.max] { check(value) }
        var bytes = Array("[".utf8)
        JSONDigits.append(-42, to: &bytes)
        #expect(bytes == Array("[-42".utf8))
    }

    @Test func writtenThroughAPointerTheDigitsAreTheSame() {
        let values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 1_000_000, Int64.max, Int64.min]
        for value in values {
            let written = [UInt8](unsafeUninitializedCapacity: JSONDigits.maximumWrittenCount) { buffer, count in
                count = JSONDigits.write(value, at: buffer.baseAddress!)
            }
            #expect(written == Array(String(value).utf8))
        }
        for value in [UInt64.max, UInt64(0), UInt64(10_000_000_000_000_000_000)] {
            let written = [UInt8](unsafeUninitializedCapacity: JSONDigits.maximumWrittenCount) { buffer, count in
                count = JSONDigits.write(value, at: buffer.baseAddress!)
            }
            #expect(written == Array(String(value).utf8))
        }
    }
}
