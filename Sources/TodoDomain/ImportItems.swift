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
        for (item, index) in Self.placed(added, among: state.items) {
            state.items.insert(item, at: index)
        }
        state.pushUndo(
            "import \(added.count) item\(added.count == 1 ? "" : "s")", added.map { .remove(number: $0.number) },
            change: change)
    }

    /// `added` in the order they go in, each with the position it takes once those before it
    /// are in: where inserting them one by one, each before the first item created after it,
    /// would put them. Found in one pass over `items`, not one per added item: an item goes
    /// before the first existing one whose creation time, or an earlier one's, is later than
    /// its own; those going to the same place keep their creation order, then their order in
    /// `added`.
    static func placed(_ added: [TodoItem], among items: ChunkedArray<TodoItem>) -> [(TodoItem, Int)] {
        let sorted = added.indices.sorted { (added[$0].createdAt, $0) < (added[$1].createdAt, $1) }.map { added[$0] }
        var placements: [(TodoItem, Int)] = []
        placements.reserveCapacity(sorted.count)
        var latest = Int64.min
        var passed = 0
        for existing in items {
            guard placements.count < sorted.count else { break }
            latest = max(latest, existing.createdAt)
            while placements.count < sorted.count, sorted[placements.count].createdAt < latest {
                placements.append((sorted[placements.count], passed + placements.count))
            }
            passed += 1
        }
        while placements.count < sorted.count {
            placements.append((sorted[placements.count], passed + placements.count))
        }
        return placements
    }
}
