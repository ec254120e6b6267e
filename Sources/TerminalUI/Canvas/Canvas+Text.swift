extension Canvas {
    /// Writes `text` on one row from `column`, cluster by cluster at its display width,
    /// stopping at the clip's right edge (a wide character that does not fit leaves a space).
    /// Control characters show as U+FFFD. Returns the column after the last cell written.
    @discardableResult
    public mutating func write(
        _ text: some StringProtocol, row: Int, column: Int, style: Style = .plain, clip: Rect? = nil
    ) -> Int {
        let limit = (clip ?? bounds).intersection(bounds)
        guard row >= limit.minRow, row < limit.maxRow else { return column }
        var cursor = column
        for character in text {
            let glyph = DisplayWidth.glyph(character)
            guard glyph.width > 0 else { continue }
            if cursor + glyph.width > limit.maxColumn {
                if cursor < limit.maxColumn { put(.blank(style), row: row, column: cursor, clip: limit) }
                return limit.maxColumn
            }
            if cursor >= limit.minColumn {
                put(
                    Cell(glyph.character, style: style, kind: glyph.width == 2 ? .wide : .narrow), row: row,
                    column: cursor, clip: limit)
            }
            cursor += glyph.width
        }
        return cursor
    }

    /// Fills row `row` from `column` to the clip's right edge with blanks of `style`, then
    /// writes `text` there: one line of a pane, fully painted.
    public mutating func writeLine(
        _ text: some StringProtocol, row: Int, column: Int = 0, style: Style = .plain, clip: Rect? = nil
    ) {
        let limit = (clip ?? bounds).intersection(bounds)
        fill(
            Rect(row: row, column: column, columns: limit.maxColumn - column, rows: 1).intersection(limit),
            with: .blank(style))
        write(text, row: row, column: column, style: style, clip: limit)
    }

    /// Draws a frame of box-drawing lines around `rect`, with `title` in its top edge.
    public mutating func drawBox(_ rect: Rect, title: String = "", style: Style = .plain) {
        guard rect.size.columns >= 2, rect.size.rows >= 2 else { return }
        let top = rect.minRow
        let bottom = rect.maxRow - 1
        let left = rect.minColumn
        let right = rect.maxColumn - 1
        for column in left + 1..<right {
            put(Cell("─", style: style), row: top, column: column)
            put(Cell("─", style: style), row: bottom, column: column)
        }
        for row in top + 1..<bottom {
            put(Cell("│", style: style), row: row, column: left)
            put(Cell("│", style: style), row: row, column: right)
        }
        put(Cell("┌", style: style), row: top, column: left)
        put(Cell("┐", style: style), row: top, column: right)
        put(Cell("└", style: style), row: bottom, column: left)
        put(Cell("┘", style: style), row: bottom, column: right)
        if !title.isEmpty && rect.size.columns > 4 {
            let inner = Rect(row: top, column: left + 1, columns: rect.size.columns - 2, rows: 1)
            var titleStyle = style
            titleStyle.bold = true
            write(
                TextLayout.truncate(" \(title) ", toWidth: inner.size.columns), row: top, column: left + 1,
                style: titleStyle, clip: inner)
        }
    }
}
