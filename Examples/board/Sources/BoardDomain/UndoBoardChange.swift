import SyncStore

/// `undo {}`: reverts the most recent change that has not been undone yet. Undoing again goes
/// further back; an undo is never itself undone. Rejected when there is nothing left to undo.
///
/// As in the todo app, an undo names what it undoes: the change its client saw as the newest
/// (`BoardUndoViewModel`, given with `init(reverting:)`), or else the newest change when the
/// daemon accepts it. If another change is the newest when the undo is applied, the undo is
/// rejected, never re-targeted at that newer change.
public struct UndoBoardChange: Action {
    public static let wireName = "undo"
    /// Acceptance takes the newest change from the state: journaled as accepted.
    public static let acceptanceReadsState = true
    /// What is undone, noted at acceptance for the journal and the person who asked.
    public var undoing: String?
    /// The id of the change this undo reverts, fixed at acceptance.
    public var reverts: Int?

    /// An undo of the newest change when the daemon accepts it.
    public init() {}

    /// An undo of `target`, the change the client saw as the newest (`BoardUndoViewModel.next`).
    public init(reverting target: BoardUndoTarget) {
        undoing = target.summary
        reverts = target.change
    }

    public mutating func accept(_ context: AcceptanceContext, state: BoardState) {
        // A client that named its target keeps it: the undo is judged against it.
        guard reverts == nil else { return }
        undoing = state.undoStack.last?.summary
        reverts = state.undoStack.last?.change
    }

    public func update(_ state: inout BoardState) throws {
        guard let top = state.undoStack.last else { throw BoardRejection.nothingToUndo }
        // Accepted when there was nothing to undo: whatever is on top now came later.
        guard let reverts else { throw BoardRejection.nothingToUndo }
        guard top.change == reverts else {
            throw BoardRejection.undoOvertaken(undoing: undoing ?? "the change it was for", latest: top.summary)
        }
        state.undoStack.removeLast()
        state.revert(top.changes)
    }
}
