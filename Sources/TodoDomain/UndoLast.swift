import SyncStore

/// `undo {}`: reverts the most recent change that has not been undone yet. Undoing again goes
/// further back; an undo is never itself undone. Rejected when there is nothing left to undo.
public struct UndoLast: Action {
    public static let wireName = "undo"
    /// What is undone, noted at acceptance for the journal and the person who asked
    /// (`add "buy milk"`); replay does not need it.
    public var undoing: String?

    /// The undo action.
    public init() {}

    public mutating func accept(_ context: AcceptanceContext, state: TodoState) {
        undoing = state.undoStack.last?.summary
    }

    public func update(_ state: inout TodoState) throws {
        guard let step = state.undoStack.popLast() else { throw TodoRejection.nothingToUndo }
        state.revert(step.changes)
    }
}
