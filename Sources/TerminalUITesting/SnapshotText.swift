import TerminalUI

/// A canvas as the text of a snapshot file: the size, each row between bars (so trailing
/// spaces and width show), then the styled runs.
///
/// ```
/// 40x2
/// |> 1 [ ] buy milk                        |
/// |connected  v3                           |
/// styles:
/// 0: 0-39 reverse
/// 1: 0-12 green
/// ```
///
/// A wide character is written once, in its left cell; its right cell adds nothing, so a
/// row of wide characters lines up in an editor that shows them two columns wide.
public enum SnapshotText {
    /// The text of `canvas`.
    public static func render(_ canvas: Canvas) -> String {
        var lines = ["\(canvas.size)"]
        var styles: [String] = []
        for row in 0..<canvas.size.rows {
            var line = "|"
            for cell in canvas.row(row) where cell.kind != .continuation {
                line.append(cell.character)
            }
            lines.append(line + "|")
            styles.append(
                contentsOf: styleRuns(of: canvas.row(row)).map {
                    "\(row): \($0.columns.lowerBound)-\($0.columns.upperBound - 1) \($0.style)"
                })
        }
        if !styles.isEmpty { lines.append("styles:") }
        return (lines + styles).joined(separator: "\n") + "\n"
    }

    /// The rows of `canvas` as plain text, trailing spaces removed (for assertions).
    public static func lines(_ canvas: Canvas) -> [String] {
        (0..<canvas.size.rows).map { row in
            var line = ""
            for cell in canvas.row(row) where cell.kind != .continuation {
                line.append(cell.character)
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    private static func styleRuns(of cells: ArraySlice<Cell>) -> [(columns: Range<Int>, style: Style)] {
        var runs: [(columns: Range<Int>, style: Style)] = []
        for (offset, cell) in cells.enumerated() where !cell.style.isPlain {
            if let last = runs.last, last.style == cell.style, last.columns.upperBound == offset {
                runs[runs.count - 1].columns = last.columns.lowerBound..<offset + 1
            } else {
                runs.append((offset..<offset + 1, cell.style))
            }
        }
        return runs
    }
}
