import SyncProtocol

// The values a snapshot of the todo state is made of, written straight into its bytes (see
// `PlainObjectEncodable`): every item and every undo step, thousands of them per snapshot.
// Each writes what its `encode(to:)` for an `Encoder` writes, keys in bytewise order.

extension TodoItem: PlainObjectEncodable {
    public func encode(to object: inout PlainObjectWriter) {
        object.encode(completed, forKey: "completed")
        object.encodeIfPresent(completedAt, forKey: "completedAt")
        object.encode(createdAt, forKey: "createdAt")
        object.encode(id, forKey: "id")
        object.encode(number, forKey: "number")
        object.encode(text, forKey: "text")
    }
}

extension UndoStep: PlainObjectEncodable {
    public func encode(to object: inout PlainObjectWriter) {
        object.encodeIfPresent(change, forKey: "change")
        object.encode(changes, forKey: "changes")
        object.encode(summary, forKey: "summary")
    }
}

extension UndoChange: PlainObjectEncodable {
    public func encode(to object: inout PlainObjectWriter) {
        switch self {
        case .remove(let number):
            object.encodeObject(forKey: "remove") { $0.encode(number, forKey: "number") }
        case .restore(let item, let index):
            object.encodeObject(forKey: "restore") { restore in
                restore.encode(index, forKey: "index")
                restore.encode(item, forKey: "item")
            }
        case .replace(let item):
            object.encodeObject(forKey: "replace") { $0.encode(item, forKey: "item") }
        }
    }
}
