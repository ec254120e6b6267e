import SyncStore

/// The one authoritative state of the board app.
public struct BoardState: Codable, Equatable, Sendable {
    /// The column a card enters `done` by: moving there fixes its `doneAt`, which the sweep reads.
    public static let doneColumn = "done"
    /// The columns of a new board.
    public static let defaultColumns = ["todo", "doing", doneColumn]

    /// The columns, left to right.
    public var columns: [BoardColumn]
    /// Archived cards, oldest archived first.
    public var archive: [BoardCard]
    /// What `undo` can revert, newest last, at most `undoDepth` steps.
    public var undoStack: [BoardUndoStep]

    /// A state with the given columns, archive and undo steps (default: the three default columns, empty).
    public init(
        columns: [BoardColumn] = BoardState.defaultColumns.map { BoardColumn(name: $0) }, archive: [BoardCard] = [],
        undoStack: [BoardUndoStep] = []
    ) {
        self.columns = columns
        self.archive = archive
        self.undoStack = undoStack
    }

    /// Where the card `id` is on the board (column and position), if it is on it.
    public func location(of id: String) -> (column: Int, position: Int)? {
        for (column, entry) in columns.enumerated() {
            if let position = entry.cards.firstIndex(where: { $0.id == id }) { return (column, position) }
        }
        return nil
    }

    /// The position of column `name`, or a rejection naming it.
    func columnIndex(_ name: String) throws(BoardRejection) -> Int {
        guard let index = columns.firstIndex(where: { $0.name == name }) else { throw .noSuchColumn(name) }
        return index
    }

    /// Where the card `id` is, or a rejection: archived, or unknown.
    func activeLocation(of id: String) throws(BoardRejection) -> (column: Int, position: Int) {
        if let location = location(of: id) { return location }
        if let card = archive.first(where: { $0.id == id }) { throw .cardArchived(card.title) }
        throw .noSuchCard(id)
    }
}
