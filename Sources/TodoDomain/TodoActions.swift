import SyncStore

/// `add {text}`: appends a new open item with the next number.
///
/// `id` and `createdAt` are fixed at acceptance from its context alone (anything a client sends
/// there is replaced), so a replay, which accepts the journaled payload again with the same
/// context, rebuilds the same item.
public struct AddItem: Action {
    public static let wireName = "add"
    /// The item's text; trimmed when applied.
    public var text: String
    /// Fixed at acceptance.
    public var id: String?
    /// Fixed at acceptance, milliseconds since the Unix epoch.
    public var createdAt: Int64?
    /// Fixed at acceptance: the id of the undo step this action records (`UndoLast.reverts`).
    public var change: Int?

    /// An add action for `text`.
    public init(text: String) { self.text = text }

    public mutating func accept(_ context: AcceptanceContext, state: TodoState) {
        id = context.identifier.uuidString.lowercased()
        createdAt = context.millisecondsSinceEpoch
        change = context.changeID
    }

    public func update(_ state: inout TodoState) throws {
        guard let id, let createdAt else { throw TodoRejection.notAccepted }
        let text = try TodoText.validated(text)
        let item = TodoItem(id: id, number: state.nextNumber, text: text, completed: false, createdAt: createdAt)
        state.items.append(item)
        state.nextNumber += 1
        state.pushUndo("add", item, revertedBy: .remove(number: item.number), change: change)
    }
}

/// `complete {number}`: marks an item done. Completing a done item changes nothing.
public struct CompleteItem: Action {
    public static let wireName = "complete"
    /// The item to complete.
    public var number: Int
    /// Fixed at acceptance, milliseconds since the Unix epoch.
    public var completedAt: Int64?
    /// Fixed at acceptance: the id of the undo step this action records (`UndoLast.reverts`).
    public var change: Int?

    /// A complete action for item `number`.
    public init(number: Int) { self.number = number }

    public mutating func accept(_ context: AcceptanceContext, state: TodoState) {
        completedAt = context.millisecondsSinceEpoch
        change = context.changeID
    }

    public func update(_ state: inout TodoState) throws {
        guard let completedAt else { throw TodoRejection.notAccepted }
        let index = try state.index(of: number)
        let before = state.items[index]
        guard !before.completed else { return }
        var after = before
        after.completed = true
        after.completedAt = completedAt
        state.items.replace(at: index, with: after)
        state.pushUndo("complete", before, revertedBy: .replace(item: before), change: change)
    }
}

/// `reopen {number}`: marks an item open again. Reopening an open item changes nothing.
public struct ReopenItem: Action {
    public static let wireName = "reopen"
    /// The item to reopen.
    public var number: Int
    /// Fixed at acceptance: the id of the undo step this action records (`UndoLast.reverts`).
    public var change: Int?

    /// A reopen action for item `number`.
    public init(number: Int) { self.number = number }

    public mutating func accept(_ context: AcceptanceContext, state: TodoState) {
        change = context.changeID
    }

    public func update(_ state: inout TodoState) throws {
        let index = try state.index(of: number)
        let before = state.items[index]
        guard before.completed else { return }
        var after = before
        after.completed = false
        after.completedAt = nil
        state.items.replace(at: index, with: after)
        state.pushUndo("reopen", before, revertedBy: .replace(item: before), change: change)
    }
}

/// `edit {number, text}`: replaces an item's text.
public struct EditItem: Action {
    public static let wireName = "edit"
    /// The item to edit.
    public var number: Int
    /// The new text; trimmed when applied.
    public var text: String
    /// Fixed at acceptance: the id of the undo step this action records (`UndoLast.reverts`).
    public var change: Int?

    /// An edit action setting item `number`'s text.
    public init(number: Int, text: String) {
        self.number = number
        self.text = text
    }

    public mutating func accept(_ context: AcceptanceContext, state: TodoState) {
        change = context.changeID
    }

    public func update(_ state: inout TodoState) throws {
        let index = try state.index(of: number)
        let text = try TodoText.validated(text)
        let before = state.items[index]
        var after = before
        after.text = text
        state.items.replace(at: index, with: after)
        state.pushUndo("edit", before, revertedBy: .replace(item: before), change: change)
    }
}

/// `remove {number}`: deletes an item. Its number is never given to another item.
public struct RemoveItem: Action {
    public static let wireName = "remove"
    /// The item to remove.
    public var number: Int
    /// When set, the item goes only if it is done and was done at or before this time
    /// (milliseconds since the Unix epoch); otherwise the remove is refused. The expiry side
    /// effects set it, so that an item reopened after they looked stays.
    public var doneBy: Int64?
    /// Fixed at acceptance: the id of the undo step this action records (`UndoLast.reverts`).
    public var change: Int?

    /// A remove action for item `number`, only if it was done by `doneBy` when that is given.
    public init(number: Int, doneBy: Int64? = nil) {
        self.number = number
        self.doneBy = doneBy
    }

    public mutating func accept(_ context: AcceptanceContext, state: TodoState) {
        change = context.changeID
    }

    public func update(_ state: inout TodoState) throws {
        let index = try state.index(of: number)
        if let doneBy {
            let item = state.items[index]
            guard item.completed, let completedAt = item.completedAt, completedAt <= doneBy else {
                throw TodoRejection.notDoneBy(number: number, time: doneBy)
            }
        }
        let removed = state.items.remove(at: index)
        state.pushUndo("remove", removed, revertedBy: .restore(item: removed, index: index), change: change)
    }
}

/// `clearCompleted {}`: deletes every completed item (nothing done: no change).
public struct ClearCompleted: Action {
    public static let wireName = "clearCompleted"
    /// Fixed at acceptance: the id of the undo step this action records (`UndoLast.reverts`).
    public var change: Int?

    /// The clear action.
    public init() {}

    public mutating func accept(_ context: AcceptanceContext, state: TodoState) {
        change = context.changeID
    }

    public func update(_ state: inout TodoState) throws {
        let removed = state.items.enumerated().filter { $0.element.completed }
        guard !removed.isEmpty else { return }
        state.items.removeAll(where: \.completed)
        state.pushUndo(
            "clear \(removed.count) done item\(removed.count == 1 ? "" : "s")",
            removed.map { .restore(item: $0.element, index: $0.offset) }, change: change)
    }
}
