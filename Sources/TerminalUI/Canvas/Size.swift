/// A size in terminal cells: columns across, rows down.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Cells across.
    public var columns: Int
    /// Cells down.
    public var rows: Int

    /// A size of `columns` × `rows` (negative values count as 0).
    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }

    /// No cells at all.
    public static let zero = Size(columns: 0, rows: 0)

    /// Whether the size holds no cell.
    public var isEmpty: Bool { columns == 0 || rows == 0 }

    /// `80x24`, as in snapshot file names.
    public var description: String { "\(columns)x\(rows)" }
}
