/// A rectangle of cells: its top-left cell and its size.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left cell.
    public var origin: Position
    /// Columns and rows covered.
    public var size: Size

    /// A rectangle at `origin` of `size`.
    public init(origin: Position, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// A rectangle at `row`, `column` of `columns` × `rows`.
    public init(row: Int, column: Int, columns: Int, rows: Int) {
        self.init(origin: Position(row: row, column: column), size: Size(columns: columns, rows: rows))
    }

    /// The first row inside.
    public var minRow: Int { origin.row }
    /// The row just below the rectangle.
    public var maxRow: Int { origin.row + size.rows }
    /// The first column inside.
    public var minColumn: Int { origin.column }
    /// The column just right of the rectangle.
    public var maxColumn: Int { origin.column + size.columns }

    /// Whether `position` is inside.
    public func contains(_ position: Position) -> Bool {
        position.row >= minRow && position.row < maxRow && position.column >= minColumn && position.column < maxColumn
    }

    /// The cells inside both rectangles (empty, at this origin, when they do not overlap).
    public func intersection(_ other: Rect) -> Rect {
        let top = max(minRow, other.minRow)
        let left = max(minColumn, other.minColumn)
        let bottom = min(maxRow, other.maxRow)
        let right = min(maxColumn, other.maxColumn)
        guard bottom > top, right > left else { return Rect(origin: origin, size: .zero) }
        return Rect(row: top, column: left, columns: right - left, rows: bottom - top)
    }

    /// This rectangle moved by `offset`.
    public func offset(by offset: Position) -> Rect {
        Rect(origin: origin.offset(by: offset), size: size)
    }

    /// A rectangle of `size` (clamped to this one) centred in this one.
    public func centered(_ size: Size) -> Rect {
        let columns = min(size.columns, self.size.columns)
        let rows = min(size.rows, self.size.rows)
        return Rect(
            row: minRow + (self.size.rows - rows) / 2, column: minColumn + (self.size.columns - columns) / 2,
            columns: columns, rows: rows)
    }

    /// `row,column+columnsxrows`.
    public var description: String { "\(origin)+\(size)" }
}
