import SyncStore

/// The one authoritative state of the todo app.
public struct TodoState: Codable, Equatable, Sendable {
    /// Every item, in creation order. Chunked, so that changing one item of a long list copies a
    /// chunk, not the list.
    public var items: ChunkedArray<TodoItem>
    /// The number the next new item gets. Only grows, so numbers are never reused.
    public var nextNumber: Int
    /// What `undo` can revert, newest last.
    public var undoStack: UndoHistory

    /// A state with the given items, next number and undo steps.
    public init(items: some Sequence<TodoItem> = [], nextNumber: Int = 1, undoStack: UndoHistory = []) {
        self.items = ChunkedArray(items)
        self.nextNumber = nextNumber
        self.undoStack = undoStack
    }

    /// The position of the item with `number`, if there is one.
    ///
    /// Numbers are given in creation order, so items are nearly always sorted by number and a
    /// binary search finds it. Imports can place an item with a new number among older ones;
    /// when the search misses, every item is looked at.
    func position(of number: Int) -> Int? {
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            if items[middle].number < number { low = middle + 1 } else { high = middle }
        }
        if low < items.count, items[low].number == number { return low }
        return items.firstIndex { $0.number == number }
    }

    /// The position of the item with `number`, or a rejection naming it.
    func index(of number: Int) throws(TodoRejection) -> Int {
        guard let index = position(of: number) else { throw TodoRejection.noSuchItem(number) }
        return index
    }
}
