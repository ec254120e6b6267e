import SyncStore

/// `undo {}`: reverts the most recent change that has not been undone yet. Undoing again goes
/// further back; an undo is never itself undone. Rejected when there is nothing left to undo.
///
/// An undo names what it undoes: the change its client saw as the newest (`UndoViewModel`,
/// given with `init(reverting:)`), or else the newest change when the daemon accepts it
/// (`reverts`, the change's id). If another change is the newest when the undo is applied (one made
/// meanwhile, or one from another host committed first to a shared log), the undo is
/// rejected, never re-targeted at that newer change.
public struct UndoLast: Action {
    public static let wireName = "undo"
    /// Acceptance takes the newest change from the state: journaled as accepted.
    public static let acceptanceReadsState = true
    /// What is undone, noted at acceptance for the journal and the person who asked
    /// (`add "buy milk"`); replay does not need it.
    public var undoing: String?
    /// The id of the change this undo reverts, fixed at acceptance; `nil` in undos journaled
    /// before undo named its target, and for a change recorded before changes had ids.
    public var reverts: Int?

    /// An undo of the newest change when the daemon accepts it.
    public init() {}

    /// An undo of `target`, the change the client saw as the newest (`UndoViewModel.next`).
    public init(reverting target: UndoTarget) {
        undoing = target.summary
        reverts = target.change
    }

    public mutating func accept(_ context: AcceptanceContext, state: TodoState) {
        // A client that named its target keeps it: the undo is judged against it.
        guard reverts == nil else { return }
        undoing = state.undoStack.last?.summary
        reverts = state.undoStack.last?.change
    }

    public func update(_ state: inout TodoState) throws {
        guard let top = state.undoStack.last else { throw TodoRejection.nothingToUndo }
        // Accepted when there was nothing to undo: whatever is on top now came later.
        if reverts == nil && undoing == nil { throw TodoRejection.nothingToUndo }
        // A change without an id (recorded before ids) is named by what it did.
        if reverts == nil, let undoing, top.summary != undoing {
            throw TodoRejection.undoOvertaken(undoing: undoing, latest: top.summary)
        }
        if let reverts, top.change != reverts {
            throw TodoRejection.undoOvertaken(undoing: undoing ?? "the change it was for", latest: top.summary)
        }
        guard let step = state.undoStack.popLast() else { throw TodoRejection.nothingToUndo }
        state.revert(step.changes)
    }
}
