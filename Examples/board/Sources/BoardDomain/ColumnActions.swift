import SyncStore

/// `addColumn {name, position?}`: adds an empty column at `position` (0 is the leftmost;
/// default: the right end). Names are one word, unique on the board.
public struct AddColumn: Action {
    public static let wireName = "addColumn"
    /// The new column's name; trimmed when applied.
    public var name: String
    /// Where it goes; `nil` for the right end.
    public var position: Int?
    /// Fixed at acceptance: the id of the undo step this action records.
    public var change: Int?

    /// An action adding column `name` at `position`.
    public init(name: String, position: Int? = nil) {
        self.name = name
        self.position = position
    }

    public mutating func accept(_ context: AcceptanceContext, state: BoardState) {
        change = context.changeID
    }

    public func update(_ state: inout BoardState) throws {
        let name = try BoardText.columnName(name)
        guard !state.columns.contains(where: { $0.name == name }) else { throw BoardRejection.columnExists(name) }
        let position = self.position ?? state.columns.count
        guard (0...state.columns.count).contains(position) else {
            throw BoardRejection.columnPositionOutOfRange(position: position, columns: state.columns.count)
        }
        state.columns.insert(BoardColumn(name: name), at: position)
        state.pushUndo("add column \(name)", [.removeColumn(name: name)], change: change)
    }
}

/// `setColumnLimit {column, limit}`: sets the column's work-in-progress limit (`null`
/// removes it). A limit below the cards the column holds already is refused: the limit is
/// never broken, not even for a moment.
public struct SetColumnLimit: Action {
    public static let wireName = "setColumnLimit"
    /// The column.
    public var column: String
    /// The most cards it may hold, at least 1; `nil` for no limit.
    public var limit: Int?
    /// Fixed at acceptance: the id of the undo step this action records.
    public var change: Int?

    /// An action setting `column`'s limit to `limit`.
    public init(column: String, limit: Int?) {
        self.column = column
        self.limit = limit
    }

    public mutating func accept(_ context: AcceptanceContext, state: BoardState) {
        change = context.changeID
    }

    public func update(_ state: inout BoardState) throws {
        let index = try state.columnIndex(column)
        let before = state.columns[index]
        if let limit {
            guard limit >= 1 else { throw BoardRejection.invalidLimit(limit) }
            guard before.cards.count <= limit else {
                throw BoardRejection.limitBelowCards(column: column, cards: before.cards.count, limit: limit)
            }
        }
        guard before.limit != limit else { return }
        state.columns[index].limit = limit
        let summary = limit.map { "limit \(column) to \($0)" } ?? "remove the limit of \(column)"
        state.pushUndo(summary, [.restoreColumn(before)], change: change)
    }
}
