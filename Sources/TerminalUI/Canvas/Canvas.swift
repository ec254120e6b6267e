/// A grid of cells: what a view draws and what the terminal shows, as a value.
///
/// Rendering is a pure function from a model and a size to a canvas; the renderer writes the
/// difference between two canvases to the terminal, and snapshot tests compare canvases as
/// text. Drawing keeps wide characters whole: overwriting either half of one blanks the other
/// half, and a wide character that would cross the right edge of the clip is replaced by a
/// space.
public struct Canvas: Hashable, Sendable {
    /// Columns and rows.
    public private(set) var size: Size
    /// The cells, row by row.
    public private(set) var cells: [Cell]

    /// A canvas of `size` filled with `cell`.
    public init(size: Size, filledWith cell: Cell = .blank) {
        self.size = size
        cells = Array(repeating: cell, count: size.columns * size.rows)
    }

    /// The whole canvas as a rectangle at the origin.
    public var bounds: Rect { Rect(origin: .origin, size: size) }

    /// The cell at `row`, `column` (which must be inside).
    public subscript(row: Int, column: Int) -> Cell {
        cells[row * size.columns + column]
    }

    /// The cells of `row`.
    public func row(_ row: Int) -> ArraySlice<Cell> {
        cells[row * size.columns..<(row + 1) * size.columns]
    }

    /// Puts `cell` at `row`, `column`, keeping wide characters whole. A wide cell must have
    /// room for its continuation inside `clip` (else a blank of its style goes there instead).
    /// Positions outside the canvas or `clip` are ignored.
    public mutating func put(_ cell: Cell, row: Int, column: Int, clip: Rect? = nil) {
        let limit = clip.map { $0.intersection(bounds) } ?? bounds
        guard limit.contains(Position(row: row, column: column)) else { return }
        var cell = cell
        if cell.kind == .continuation { return }
        if cell.kind == .wide && column + 1 >= limit.maxColumn {
            cell = .blank(cell.style)
        }
        breakWideCharacter(row: row, column: column)
        if cell.kind == .wide {
            breakWideCharacter(row: row, column: column + 1)
            set(Cell(" ", style: cell.style, kind: .continuation), row: row, column: column + 1)
        }
        set(cell, row: row, column: column)
    }

    /// Fills `rect` (clipped to the canvas) with copies of `cell`, a narrow cell.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let area = rect.intersection(bounds)
        guard !area.size.isEmpty else { return }
        for row in area.minRow..<area.maxRow {
            for column in area.minColumn..<area.maxColumn {
                put(cell, row: row, column: column, clip: area)
            }
        }
    }

    /// Copies `other` onto this canvas with its top-left cell at `origin`, only inside `clip`
    /// (default: everywhere). A wide character cut by the clip's edge becomes a space.
    public mutating func draw(_ other: Canvas, at origin: Position, clip: Rect? = nil) {
        let target = Rect(origin: origin, size: other.size).intersection(clip ?? bounds).intersection(bounds)
        guard !target.size.isEmpty else { return }
        for row in target.minRow..<target.maxRow {
            for column in target.minColumn..<target.maxColumn {
                var cell = other[row - origin.row, column - origin.column]
                if cell.kind == .continuation {
                    // Its left half lies outside the target: the character cannot be shown.
                    guard column == target.minColumn else { continue }
                    cell = .blank(cell.style)
                }
                put(cell, row: row, column: column, clip: target)
            }
        }
    }

    /// The same grid with every style plain (what a terminal shows with `NO_COLOR`).
    public func withoutStyles() -> Canvas {
        var copy = self
        for index in copy.cells.indices {
            copy.cells[index].style = .plain
        }
        return copy
    }

    private mutating func set(_ cell: Cell, row: Int, column: Int) {
        cells[row * size.columns + column] = cell
    }

    /// Blanks the other half of a wide character `row`, `column` is part of, so that writing
    /// one half never leaves the other half behind.
    private mutating func breakWideCharacter(row: Int, column: Int) {
        guard column < size.columns else { return }
        let cell = self[row, column]
        switch cell.kind {
        case .narrow:
            return
        case .wide:
            set(.blank(cell.style), row: row, column: column)
            if column + 1 < size.columns { set(.blank(cell.style), row: row, column: column + 1) }
        case .continuation:
            set(.blank(cell.style), row: row, column: column)
            if column > 0 { set(.blank(cell.style), row: row, column: column - 1) }
        }
    }
}
