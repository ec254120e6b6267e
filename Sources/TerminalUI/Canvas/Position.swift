/// A cell's place: row from the top, column from the left, both from 0.
public struct Position: Hashable, Sendable, CustomStringConvertible {
    /// Rows from the top.
    public var row: Int
    /// Columns from the left.
    public var column: Int

    /// The cell at `row`, `column`.
    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    /// The top-left cell.
    public static let origin = Position(row: 0, column: 0)

    /// This position moved by `offset` rows and columns.
    public func offset(by offset: Position) -> Position {
        Position(row: row + offset.row, column: column + offset.column)
    }

    /// `row,column`.
    public var description: String { "\(row),\(column)" }
}
