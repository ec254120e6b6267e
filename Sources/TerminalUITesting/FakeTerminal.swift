import TerminalUI

/// A terminal emulator in memory, for tests: it interprets what the renderer writes (cursor
/// moves, erase, styles, the modes this library sets) onto a grid, like a real terminal
/// with automatic wrapping off, so a test reads what a user would see.
///
/// Writing either half of a wide character blanks the other half, as xterm does. Anything it
/// does not know is kept in `unsupported`, so a test can insist the renderer only sends what
/// is understood.
@MainActor
public final class FakeTerminal: TerminalDevice {
    /// The window size.
    public private(set) var size: Size
    /// What the terminal shows (the alternate screen while it is on).
    public private(set) var screen: Canvas
    /// Where the cursor is.
    public private(set) var cursor = Position.origin
    /// Whether the cursor is shown.
    public private(set) var isCursorVisible = true
    /// Whether the alternate screen is on.
    public private(set) var isAlternateScreen = false
    /// Whether writing past the last column wraps (this library turns it off).
    public private(set) var autowraps = true
    /// Whether focus changes are reported.
    public private(set) var reportsFocus = false
    /// Bytes received in all.
    public private(set) var bytesReceived = 0
    /// Bytes received by the last `write`.
    public private(set) var lastWriteSize = 0
    /// Sequences and situations it does not handle, in order.
    public private(set) var unsupported: [String] = []

    private var style = Style.plain
    private var pending: [UInt8] = []
    private var savedMainScreen: Canvas?

    /// A terminal of `size`, blank, on the normal screen.
    public init(size: Size) {
        self.size = size
        screen = Canvas(size: size)
    }

    /// The rows as text, trailing spaces removed.
    public var lines: [String] { SnapshotText.lines(screen) }
    /// The rows joined by newlines.
    public var text: String { lines.joined(separator: "\n") }

    /// Changes the window size, keeping what fits (as terminals do before the program
    /// redraws).
    public func resize(to size: Size) {
        self.size = size
        var resized = Canvas(size: size)
        resized.draw(screen, at: .origin)
        screen = resized
        cursor = Position(
            row: min(cursor.row, max(0, size.rows - 1)), column: min(cursor.column, max(0, size.columns - 1)))
    }

    /// Interprets `bytes`; a sequence cut at the end waits for the next write.
    public func write(_ bytes: [UInt8]) {
        bytesReceived += bytes.count
        lastWriteSize = bytes.count
        pending.append(contentsOf: bytes)
        var index = 0
        var text: [UInt8] = []
        while index < pending.count {
            guard pending[index] == 0x1B else {
                text.append(pending[index])
                index += 1
                continue
            }
            flushText(&text)
            guard let length = sequenceLength(at: index) else { break }
            interpret(Array(pending[index..<index + length]))
            index += length
        }
        flushText(&text)
        pending.removeFirst(index)
    }

    /// The length of the escape sequence at `index`, or nil if it is not complete yet.
    private func sequenceLength(at index: Int) -> Int? {
        guard index + 1 < pending.count else { return nil }
        guard pending[index + 1] == UInt8(ascii: "[") else { return 2 }
        var end = index + 2
        while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
        return end < pending.count ? end - index + 1 : nil
    }

    private func flushText(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        for character in String(decoding: bytes, as: UTF8.self) {
            put(character)
        }
        bytes = []
    }

    private func put(_ character: Character) {
        if character == "\r" {
            cursor.column = 0
            return
        }
        if character == "\n" {
            cursor.row = min(cursor.row + 1, size.rows - 1)
            return
        }
        let glyph = DisplayWidth.glyph(character)
        guard glyph.width > 0 else { return }
        guard cursor.row < size.rows, cursor.column < size.columns else {
            unsupported.append("text outside the screen at \(cursor)")
            return
        }
        if glyph.width == 2 && cursor.column + 1 >= size.columns {
            unsupported.append("wide character \(character) in the last column")
            return
        }
        screen.put(
            Cell(glyph.character, style: style, kind: glyph.width == 2 ? .wide : .narrow), row: cursor.row,
            column: cursor.column)
        if cursor.column + glyph.width < size.columns {
            cursor.column += glyph.width
        } else if autowraps {
            unsupported.append("automatic wrap at row \(cursor.row)")
        }
    }

    private func interpret(_ sequence: [UInt8]) {
        let body = String(decoding: sequence.dropFirst(2).dropLast(), as: UTF8.self)
        let final = Character(Unicode.Scalar(sequence[sequence.count - 1]))
        guard sequence.count > 2, sequence[1] == UInt8(ascii: "[") else {
            unsupported.append("ESC \(String(decoding: sequence.dropFirst(), as: UTF8.self))")
            return
        }
        if body.hasPrefix("?") {
            setMode(Int(body.dropFirst()) ?? -1, on: final == "h", sequence: body + String(final))
            return
        }
        let numbers = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        switch final {
        case "H":
            let row = (numbers.first ?? nil) ?? 1
            let column = (numbers.count > 1 ? numbers[1] : nil) ?? 1
            cursor = Position(row: min(max(row, 1), size.rows) - 1, column: min(max(column, 1), size.columns) - 1)
        case "J" where body == "2":
            screen = Canvas(size: size, filledWith: .blank(Style.plain))
        case "m":
            for number in numbers {
                applyAttribute(number ?? 0, sequence: body)
            }
        default:
            unsupported.append("CSI \(body)\(final)")
        }
    }

    private func applyAttribute(_ number: Int, sequence: String) {
        switch number {
        case 0: style = .plain
        case 1: style.bold = true
        case 2: style.dim = true
        case 4: style.underline = true
        case 7: style.reverse = true
        case 30...37: style.foreground = Color(rawValue: UInt8(number - 30))
        case 39: style.foreground = nil
        default: unsupported.append("SGR \(number) in \(sequence)m")
        }
    }

    private func setMode(_ mode: Int, on: Bool, sequence: String) {
        switch mode {
        case 1049:
            guard on != isAlternateScreen else { return }
            isAlternateScreen = on
            if on {
                savedMainScreen = screen
                screen = Canvas(size: size)
            } else {
                screen = savedMainScreen ?? Canvas(size: size)
                savedMainScreen = nil
            }
        case 25: isCursorVisible = on
        case 7: autowraps = on
        case 1004: reportsFocus = on
        default: unsupported.append("mode \(sequence)")
        }
    }
}
