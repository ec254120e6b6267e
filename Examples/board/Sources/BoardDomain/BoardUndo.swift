/// One step `undo` can revert: what an action changed, as the changes that put it back.
public struct BoardUndoStep: Codable, Equatable, Sendable {
    /// What the action did, for people: `add "write the spec"`.
    public var summary: String
    /// The changes that revert it, applied in order.
    public var changes: [BoardUndoChange]
    /// The id of the action that made the step, fixed when it was accepted: what an `undo`
    /// names as the step it reverts.
    public var change: Int?

    /// A step with every field given.
    public init(summary: String, changes: [BoardUndoChange], change: Int?) {
        self.summary = summary
        self.changes = changes
        self.change = change
    }
}

/// One change that reverts part of an action.
public enum BoardUndoChange: Codable, Equatable, Sendable {
    /// Give the column of this name this content again (cards and limit).
    case restoreColumn(BoardColumn)
    /// Take the column of this name off the board.
    case removeColumn(name: String)
    /// Take these cards out of the archive.
    case unarchive(ids: [String])
}

extension BoardState {
    /// How many steps `undo` can go back; older ones are forgotten.
    public static let undoDepth = 100

    /// Remembers how to revert an action that just changed the state.
    mutating func pushUndo(_ summary: String, _ changes: [BoardUndoChange], change: Int?) {
        undoStack.append(BoardUndoStep(summary: summary, changes: changes, change: change))
        if undoStack.count > Self.undoDepth { undoStack.removeFirst(undoStack.count - Self.undoDepth) }
    }

    /// Applies `changes`. A change is skipped if the state no longer has what it refers to.
    mutating func revert(_ changes: [BoardUndoChange]) {
        for change in changes {
            switch change {
            case .restoreColumn(let column):
                guard let index = columns.firstIndex(where: { $0.name == column.name }) else { continue }
                columns[index] = column
            case .removeColumn(let name):
                columns.removeAll { $0.name == name }
            case .unarchive(let ids):
                archive.removeAll { ids.contains($0.id) }
            }
        }
    }
}

/// The summary of an action on `card`: `move "write the spec"`.
func describe(_ verb: String, _ card: BoardCard) -> String {
    "\(verb) \"\(card.title)\""
}
