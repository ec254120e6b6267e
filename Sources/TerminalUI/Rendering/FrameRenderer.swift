/// Turns frames (canvases of the terminal's size) into the bytes that change the terminal
/// from the previous frame to the next.
///
/// Only cells that differ are written: each row's changed cells are grouped into runs (runs
/// a few cells apart are joined, since a cursor move costs more than the cells between), the
/// cursor moves to each run once, and a style is sent only when it changes. A wide character
/// that changes in either frame is rewritten whole, because a terminal blanks both halves when
/// one is overwritten. The first frame, and the first after `invalidate()` (a resize), clears
/// the screen and writes everything that is not blank.
///
/// With `colors` false (`NO_COLOR`), no attribute or colour sequence is ever written: frames
/// are compared and drawn without their styles.
public struct FrameRenderer: Sendable {
    /// Whether styles are drawn.
    public let colors: Bool
    private var previous: Canvas?
    private var cursorShown = false
    private var cursorPosition: Position?

    /// Cursor moves cheaper than writing this many unchanged cells end a run.
    static let joinGap = 4

    /// A renderer whose first frame is drawn in full.
    public init(colors: Bool) {
        self.colors = colors
    }

    /// Makes the next frame a full redraw (after a resize, or when the screen was disturbed).
    public mutating func invalidate() {
        previous = nil
    }

    /// The bytes that turn the terminal from the previous frame into `frame`, leaving the
    /// cursor visible at `cursor` or hidden when it is nil. Empty when nothing changed.
    public mutating func render(_ frame: Canvas, cursor: Position?) -> [UInt8] {
        let next = colors ? frame : frame.withoutStyles()
        var output = OutputBuffer()
        let before: Canvas
        if let previous, previous.size == next.size {
            before = previous
        } else {
            output.append((colors ? ControlSequence.resetStyle : "") + ControlSequence.clearScreen)
            output.cursor = .origin
            before = Canvas(size: next.size)
        }
        let changes = ChangedRuns.find(from: before, to: next, joinGap: Self.joinGap)
        if !changes.isEmpty && cursorShown {
            output.append(ControlSequence.hideCursor)
            cursorShown = false
        }
        for run in changes {
            output.write(run, of: next, colors: colors)
        }
        if output.style != .plain {
            output.append(ControlSequence.resetStyle)
            output.style = .plain
        }
        if let cursor, cursor.row < next.size.rows, cursor.column < next.size.columns {
            if !cursorShown || cursorPosition != cursor || !changes.isEmpty {
                output.moveCursor(to: cursor)
                if !cursorShown { output.append(ControlSequence.showCursor) }
            }
            cursorShown = true
            cursorPosition = cursor
        } else if cursorShown {
            output.append(ControlSequence.hideCursor)
            cursorShown = false
            cursorPosition = nil
        }
        previous = next
        return output.bytes
    }
}

/// The escape sequences and text of one frame, tracking where the terminal's cursor is and
/// which style is active so that neither is sent twice.
private struct OutputBuffer {
    var bytes: [UInt8] = []
    var cursor: Position?
    /// Every frame ends with the default style, so each starts with it.
    var style = Style.plain

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func moveCursor(to position: Position) {
        guard cursor != position else { return }
        append(ControlSequence.moveCursor(to: position))
        cursor = position
    }

    mutating func write(_ run: ChangedRuns.Run, of frame: Canvas, colors: Bool) {
        moveCursor(to: Position(row: run.row, column: run.columns.lowerBound))
        var column = run.columns.lowerBound
        while column < run.columns.upperBound {
            let cell = frame[run.row, column]
            if colors && cell.style != style {
                append(ControlSequence.select(cell.style))
                style = cell.style
            }
            append(String(cell.character))
            column += cell.kind == .wide ? 2 : 1
        }
        // With autowrap off the cursor stays in the last column after writing it.
        cursor = column < frame.size.columns ? Position(row: run.row, column: column) : nil
    }
}
