/// Turns the bytes read from a terminal in raw mode into events: a pure state machine, fed
/// whatever `read` returned, in pieces of any size.
///
/// ```
///   ESC [ params final   CSI: arrows (A B C D), Home/End (H F), Shift-Tab (Z),
///                        focus in/out (I O), `N ~` keys (1/7 Home, 2 Insert, 3 Delete,
///                        4/8 End, 5 PageUp, 6 PageDown); modifiers (`1;5A`) are ignored
///   ESC O final          SS3: arrows and Home/End in application cursor mode
///   ESC                  Escape, once no more bytes follow (`flush()` after a short wait)
///   0x0D 0x0A            Enter        0x7F 0x08  Backspace      0x09  Tab
///   0x01-0x1A            Ctrl-letter  UTF-8      a character (invalid bytes: U+FFFD)
/// ```
///
/// An escape sequence split across reads waits for its end; a lone ESC is ambiguous (the key,
/// or the start of a sequence still on its way), so the reader calls `flush()` when no byte
/// followed within a few milliseconds.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// A decoder with nothing pending.
    public init() {}

    /// Whether bytes wait for more (an escape sequence or a UTF-8 character cut short).
    public var hasPendingInput: Bool { !pending.isEmpty }

    /// The events the bytes complete, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [TerminalEvent] {
        pending.append(contentsOf: bytes)
        var events: [TerminalEvent] = []
        while let (event, length) = Self.decodeFirst(pending, final: false) {
            pending.removeFirst(length)
            if let event { events.append(event) }
        }
        return events
    }

    /// The events of whatever is pending, taken as complete: a lone ESC is Escape, a cut
    /// UTF-8 character is U+FFFD.
    public mutating func flush() -> [TerminalEvent] {
        var events: [TerminalEvent] = []
        while !pending.isEmpty, let (event, length) = Self.decodeFirst(pending, final: true) {
            pending.removeFirst(length)
            if let event { events.append(event) }
        }
        return events
    }

    /// The first event in `bytes` and the bytes it used; nil when more bytes are needed
    /// (never when `final`). A nil event consumes bytes that mean nothing here.
    private static func decodeFirst(_ bytes: [UInt8], final: Bool) -> (TerminalEvent?, Int)? {
        guard let first = bytes.first else { return nil }
        switch first {
        case 0x1B:
            return decodeEscape(bytes, final: final)
        case 0x0D, 0x0A:
            return (.key(.enter), 1)
        case 0x7F, 0x08:
            return (.key(.backspace), 1)
        case 0x09:
            return (.key(.tab), 1)
        case 0x01...0x1A:
            return (.key(.control(Character(Unicode.Scalar(first + 0x60)))), 1)
        case 0x00, 0x1C...0x1F:
            return (nil, 1)
        default:
            return decodeUTF8(bytes, final: final)
        }
    }

    private static func decodeEscape(_ bytes: [UInt8], final: Bool) -> (TerminalEvent?, Int)? {
        guard bytes.count >= 2 else { return final ? (.key(.escape), 1) : nil }
        switch bytes[1] {
        case UInt8(ascii: "["):
            return decodeCSI(bytes, final: final)
        case UInt8(ascii: "O"):
            guard bytes.count >= 3 else { return final ? (.key(.escape), 1) : nil }
            let keys: [UInt8: Key] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end]
            return (keys[bytes[2]].map(TerminalEvent.key), 3)
        default:
            // Alt with a key, or Escape typed just before another key: Escape, then the key.
            return (.key(.escape), 1)
        }
    }

    /// `ESC [` parameter bytes (0x30–0x3F), intermediate bytes (0x20–0x2F), one final byte.
    private static func decodeCSI(_ bytes: [UInt8], final: Bool) -> (TerminalEvent?, Int)? {
        var index = 2
        while index < bytes.count, (0x20...0x3F).contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return final ? (.key(.escape), 1) : nil }
        let finalByte = bytes[index]
        let length = index + 1
        guard (0x40...0x7E).contains(finalByte) else { return (nil, length) }
        let parameters = String(decoding: bytes[2..<index], as: UTF8.self)
        let first = Int(parameters.split(separator: ";").first ?? "") ?? 1
        switch finalByte {
        case UInt8(ascii: "A"): return (.key(.up), length)
        case UInt8(ascii: "B"): return (.key(.down), length)
        case UInt8(ascii: "C"): return (.key(.right), length)
        case UInt8(ascii: "D"): return (.key(.left), length)
        case UInt8(ascii: "H"): return (.key(.home), length)
        case UInt8(ascii: "F"): return (.key(.end), length)
        case UInt8(ascii: "Z"): return (.key(.backTab), length)
        case UInt8(ascii: "I"): return (.focus(true), length)
        case UInt8(ascii: "O"): return (.focus(false), length)
        case UInt8(ascii: "~"):
            let keys: [Int: Key] = [
                1: .home, 2: .insert, 3: .delete, 4: .end, 5: .pageUp, 6: .pageDown, 7: .home, 8: .end,
            ]
            return (keys[first].map(TerminalEvent.key), length)
        default:
            return (nil, length)
        }
    }

    private static func decodeUTF8(_ bytes: [UInt8], final: Bool) -> (TerminalEvent?, Int)? {
        let lead = bytes[0]
        let length: Int
        switch lead {
        case 0x20...0x7E: return (.key(.character(Character(Unicode.Scalar(lead)))), 1)
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.key(.character("\u{FFFD}")), 1)
        }
        for offset in 1..<min(length, bytes.count) where bytes[offset] & 0xC0 != 0x80 {
            return (.key(.character("\u{FFFD}")), offset)
        }
        guard bytes.count >= length else { return final ? (.key(.character("\u{FFFD}")), bytes.count) : nil }
        var iterator = bytes[0..<length].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else {
            return (.key(.character("\u{FFFD}")), length)
        }
        return (.key(.character(Character(scalar))), length)
    }
}
