import SyncStore

/// `import {items: [item]}`: adds exported items back, matched by `id`, so importing the same
/// items twice changes nothing.
///
/// An item whose id is already present is skipped. A new item keeps its number when that
/// number was never given out here (at or above `nextNumber`), else it gets the next number:
/// numbers are never reused. Items are placed in creation order. The whole action is rejected
/// if any item is invalid (text rules as for `add`, empty or over-long id).
public struct ImportItems: Action {
    public static let wireName = "import"
    /// The items, as `export` wrote them.
    public var items: [TodoItem]
    /// Fixed at acceptance: the id of the undo step this action records (`UndoLast.reverts`).
    public var change: Int?

    /// An import of `items`.
    public init(items: [TodoItem]) { self.items = items }

    public mutating func accept(_ context: AcceptanceContext, state: TodoState) {
        change = context.changeID
    }

    public func update(_ state: inout TodoState) throws {
        // Check and number everything first; change the state only once nothing can fail.
        var known = Set(state.items.lazy.map(\.compactID))
        var nextNumber = state.nextNumber
        var added: [TodoItem] = []
        for var item in items.sorted(by: { $0.number < $1.number }) where !known.contains(item.compactID) {
            // Spelled once: a compact id's text is made anew at each read.
            let id = item.id
            guard !id.isEmpty, id.count <= 64 else {
                throw TodoRejection.invalidImport("an item id must have 1 to 64 characters")
            }
            do {
                item.text = try TodoText.validated(item.text)
            } catch {
                throw TodoRejection.invalidImport("item \(id): \(error)")
            }
            if item.number < nextNumber { item.number = nextNumber }
            nextNumber = item.number + 1
            known.insert(item.compactID)
            added.append(item)
        }
        guard !added.isEmpty else { return }
        state.nextNumber = nextNumber
        for item in added {
            let index = state.items.firstIndex { $0.createdAt > item.createdAt } ?? state.items.count
            state.items.insert(item, at: index)
        }
        state.pushUndo(
            "import \(added.count) item\(added.count == 1 ? "" : "s")", added.map { .remove(number: $0.number) },
            change: change)
    }
}
