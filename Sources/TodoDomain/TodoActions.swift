import SyncStore

/// `add {text}`: appends a new open item with the next number.
///
/// `id` and `createdAt` are fixed at acceptance (anything a client sends there is replaced), so a
/// replay of the accepted action rebuilds the same item.
public struct AddItem: Action {
    public static let wireName = "add"
    /// The item's text; trimmed when applied.
    public var text: String
    /// Fixed at acceptance.
    public var id: String?
    /// Fixed at acceptance, milliseconds since the Unix epoch.
    public var createdAt: Int64?

    /// An add action for `text`.
    public init(text: String) { self.text = text }

    public mutating func accept(_ context: AcceptanceContext) {
        id = context.identifier.uuidString.lowercased()
        createdAt = context.millisecondsSinceEpoch
    }

    public func update(_ state: inout TodoState) throws {
        guard let id, let createdAt else { throw TodoRejection.notAccepted }
        let text = try TodoText.validated(text)
        state.items.append(TodoItem(id: id, number: state.nextNumber, text: text, completed: false, createdAt: createdAt))
        state.nextNumber += 1
    }
}

/// `complete {number}`: marks an item done. Completing a done item changes nothing.
public struct CompleteItem: Action {
    public static let wireName = "complete"
    /// The item to complete.
    public var number: Int
    /// Fixed at acceptance, milliseconds since the Unix epoch.
    public var completedAt: Int64?

    /// A complete action for item `number`.
    public init(number: Int) { self.number = number }

    public mutating func accept(_ context: AcceptanceContext) {
        completedAt = context.millisecondsSinceEpoch
    }

    public func update(_ state: inout TodoState) throws {
        guard let completedAt else { throw TodoRejection.notAccepted }
        let index = try state.index(of: number)
        guard !state.items[index].completed else { return }
        state.items[index].completed = true
        state.items[index].completedAt = completedAt
    }
}

/// `reopen {number}`: marks an item open again.
public struct ReopenItem: Action {
    public static let wireName = "reopen"
    /// The item to reopen.
    public var number: Int

    /// A reopen action for item `number`.
    public init(number: Int) { self.number = number }

    public func update(_ state: inout TodoState) throws {
        let index = try state.index(of: number)
        state.items[index].completed = false
        state.items[index].completedAt = nil
    }
}

/// `edit {number, text}`: replaces an item's text.
public struct EditItem: Action {
    public static let wireName = "edit"
    /// The item to edit.
    public var number: Int
    /// The new text; trimmed when applied.
    public var text: String

    /// An edit action setting item `number`'s text.
    public init(number: Int, text: String) {
        self.number = number
        self.text = text
    }

    public func update(_ state: inout TodoState) throws {
        let index = try state.index(of: number)
        state.items[index].text = try TodoText.validated(text)
    }
}

/// `remove {number}`: deletes an item. Its number is never given to another item.
public struct RemoveItem: Action {
    public static let wireName = "remove"
    /// The item to remove.
    public var number: Int

    /// A remove action for item `number`.
    public init(number: Int) { self.number = number }

    public func update(_ state: inout TodoState) throws {
        state.items.remove(at: try state.index(of: number))
    }
}

/// `clearCompleted {}`: deletes every completed item.
public struct ClearCompleted: Action {
    public static let wireName = "clearCompleted"

    /// The clear action.
    public init() {}

    public func update(_ state: inout TodoState) throws {
        state.items.removeAll(where: \.completed)
    }
}
