/// The one authoritative state of the todo app.
public struct TodoState: Codable, Equatable, Sendable {
    /// Every item, in creation order.
    public var items: [TodoItem]
    /// The number the next new item gets. Only grows, so numbers are never reused.
    public var nextNumber: Int
    /// What `undo` can revert, newest last.
    public var undoStack: [UndoStep]

    /// A state with the given items, next number and undo steps.
    public init(items: [TodoItem] = [], nextNumber: Int = 1, undoStack: [UndoStep] = []) {
        self.items = items
        self.nextNumber = nextNumber
        self.undoStack = undoStack
    }

    /// The position of the item with `number`, or a rejection naming it.
    func index(of number: Int) throws(TodoRejection) -> Int {
        guard let index = items.firstIndex(where: { $0.number == number }) else {
            throw TodoRejection.noSuchItem(number)
        }
        return index
    }
}
