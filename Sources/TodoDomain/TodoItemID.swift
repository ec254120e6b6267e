/// An item's id as the state holds it: a lowercase UUID, what `add` gives every item, in 16
/// bytes, where its 36-character text needed a heap block of its own (80 bytes, the largest
/// block of a short item); any other text, which an import may bring, as it is. Read and
/// written as its text: two ids are equal when their texts are.
struct TodoItemID: Hashable, Sendable {
    private enum Storage: Hashable, Sendable {
        case uuid(high: UInt64, low: UInt64)
        case text(String)
    }

    private let storage: Storage

    /// The id whose text is `text`.
    init(_ text: String) {
        storage = Self.uuid(in: text).map { .uuid(high: $0.high, low: $0.low) } ?? .text(text)
    }

    /// Whether the id is held in 16 bytes (it is a lowercase UUID).
    var isCompact: Bool {
        if case .uuid = storage { true } else { false }
    }

    /// The id's text.
    var text: String {
        switch storage {
        case .text(let text): text
        case .uuid(let high, let low): Self.text(high: high, low: low)
        }
    }

    /// Whether a UUID's text has a dash at `offset` (8-4-4-4-12 hexadecimal digits).
    private static func isDash(at offset: Int) -> Bool {
        offset == 8 || offset == 13 || offset == 18 || offset == 23
    }
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The UUID `text` spells in lowercase, if it spells one; nil for any other text (an
    /// uppercase one included: it would not read back the same).
    private static func uuid(in text: String) -> (high: UInt64, low: UInt64)? {
        var text = text
        return text.withUTF8 { bytes -> (high: UInt64, low: UInt64)? in
            guard bytes.count == 36 else { return nil }
            var halves: (UInt64, UInt64) = (0, 0)
            var digits = 0
            for (offset, byte) in bytes.enumerated() {
                if isDash(at: offset) {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let value: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
                default: return nil
                }
                if digits < 16 {
                    halves.0 = halves.0 << 4 | UInt64(value)
                } else {
                    halves.1 = halves.1 << 4 | UInt64(value)
                }
                digits += 1
            }
            return (halves.0, halves.1)
        }
    }

    /// The lowercase text of the UUID whose halves are `high` and `low`.
    private static func text(high: UInt64, low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            var position = 0
            for digit in 0..<32 {
                if isDash(at: position) {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                let half = digit < 16 ? high : low
                buffer[position] = hexDigits[Int(half >> UInt64(60 - 4 * (digit % 16)) & 0xF)]
                position += 1
            }
            return position
        }
    }
}
