import SyncStore

/// Which items a list shows.
public enum ListFilter: String, Codable, Hashable, Sendable, CaseIterable {
    /// Every item.
    case all
    /// Items not yet done.
    case open
    /// Done items.
    case done

    func includes(_ item: TodoItem) -> Bool {
        switch self {
        case .all: return true
        case .open: return !item.completed
        case .done: return item.completed
        }
    }
}

/// `list {filter}`: the items a filter shows, in creation order, with the counts of all items.
///
/// Rows are kept in chunks that follow the chunks of the state's items, so the next version
/// reuses the rows of every chunk of items that did not change.
public struct ListViewModel: IncrementalViewModel {
    public static let wireName = "list"

    /// `{filter: "all" | "open" | "done"}`; an omitted filter means `all`.
    public struct Params: Codable, Hashable, Sendable {
        /// Which items to show.
        public var filter: ListFilter

        /// Params for `filter`.
        public init(filter: ListFilter = .all) { self.filter = filter }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            filter = try container.decodeIfPresent(ListFilter.self, forKey: .filter) ?? .all
        }
    }

    /// One row of the list.
    public struct Row: Codable, Equatable, Sendable {
        /// The item's number.
        public var number: Int
        /// The item's text.
        public var text: String
        /// Whether the item is done.
        public var completed: Bool

        /// A row with every field given.
        public init(number: Int, text: String, completed: Bool) {
            self.number = number
            self.text = text
            self.completed = completed
        }
    }

    /// What one chunk of items gives: its rows and how many of its items are done.
    struct ChunkRows: Sendable {
        let rows: ChunkedArray<Row>.Chunk
        let doneCount: Int
    }

    private enum CodingKeys: String, CodingKey {
        case items, openCount, doneCount
    }

    /// The rows the filter shows.
    public var items: ChunkedArray<Row>
    /// Open items in the whole list, whatever the filter.
    public var openCount: Int
    /// Done items in the whole list, whatever the filter.
    public var doneCount: Int
    /// The rows of each chunk of the state's items and the filter they were made with, for the
    /// next version; not on the wire.
    private var chunkRows: (filter: ListFilter, rows: ChunkDerivation<TodoItem, ChunkRows>)? = nil

    public init(state: TodoState, params: Params) {
        self.init(state: state, filter: params.filter, reusing: nil)
    }

    /// Reuses `previous`'s rows only if they were made with the same filter.
    public init(state: TodoState, params: Params, previous: ListViewModel) {
        let reusable = previous.chunkRows.flatMap { $0.filter == params.filter ? $0.rows : nil }
        self.init(state: state, filter: params.filter, reusing: reusable)
    }

    private init(state: TodoState, filter: ListFilter, reusing previous: ChunkDerivation<TodoItem, ChunkRows>?) {
        let chunkRows = ChunkDerivation(state.items, reusing: previous) { items in
            var rows: [Row] = []
            rows.reserveCapacity(filter == .all ? items.count : 0)
            var done = 0
            for item in items {
                if item.completed { done += 1 }
                if filter.includes(item) {
                    rows.append(Row(number: item.number, text: item.text, completed: item.completed))
                }
            }
            return ChunkRows(rows: .init(rows), doneCount: done)
        }
        items = ChunkedArray(chunks: chunkRows.values.map(\.rows))
        doneCount = chunkRows.values.reduce(0) { $0 + $1.doneCount }
        openCount = state.items.count - doneCount
        self.chunkRows = (filter, chunkRows)
    }

    public static func == (lhs: ListViewModel, rhs: ListViewModel) -> Bool {
        lhs.openCount == rhs.openCount && lhs.doneCount == rhs.doneCount && lhs.items == rhs.items
    }
}

extension ListViewModel: DiffableViewModel {
    /// Row changes where rows changed, and the counts when they did: a toggle in a long list
    /// is a replaced row and two counts, found by looking at the rows of one chunk.
    public func changes(from old: ListViewModel) -> [ModelChange] {
        var changes = ModelChange.arrayChanges(from: old.items, to: items, at: ["items"])
        if doneCount != old.doneCount { changes.append(.replace(path: ["doneCount"], value: doneCount)) }
        if openCount != old.openCount { changes.append(.replace(path: ["openCount"], value: openCount)) }
        return changes
    }
}

/// `item {number}`: one item, or no model (`null`) when it does not exist.
public struct ItemViewModel: ViewModel {
    public static let wireName = "item"

    /// `{number}`.
    public struct Params: Codable, Hashable, Sendable {
        /// The item to show.
        public var number: Int

        /// Params for item `number`.
        public init(number: Int) { self.number = number }
    }

    /// The item.
    public var item: TodoItem

    public init?(state: TodoState, params: Params) {
        guard let position = state.position(of: params.number) else { return nil }
        item = state.items[position]
    }

    public init(from decoder: any Decoder) throws {
        item = try TodoItem(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try item.encode(to: encoder)
    }
}

/// `summary {}`: the counts of items.
public struct SummaryViewModel: IncrementalViewModel {
    public static let wireName = "summary"

    private enum CodingKeys: String, CodingKey {
        case totalCount, openCount, doneCount
    }

    /// Every item.
    public var totalCount: Int
    /// Open items.
    public var openCount: Int
    /// Done items.
    public var doneCount: Int
    /// Done items in each chunk of the state's items, for the next version; not on the wire.
    private var chunkDoneCounts: ChunkDerivation<TodoItem, Int>? = nil

    public init(state: TodoState, params: NoParams) {
        self.init(state: state, reusing: nil)
    }

    public init(state: TodoState, params: NoParams, previous: SummaryViewModel) {
        self.init(state: state, reusing: previous.chunkDoneCounts)
    }

    private init(state: TodoState, reusing previous: ChunkDerivation<TodoItem, Int>?) {
        let chunkDoneCounts = ChunkDerivation(state.items, reusing: previous) { items in items.count { $0.completed } }
        totalCount = state.items.count
        doneCount = chunkDoneCounts.values.reduce(0, +)
        openCount = totalCount - doneCount
        self.chunkDoneCounts = chunkDoneCounts
    }

    public static func == (lhs: SummaryViewModel, rhs: SummaryViewModel) -> Bool {
        (lhs.totalCount, lhs.openCount, lhs.doneCount) == (rhs.totalCount, rhs.openCount, rhs.doneCount)
    }
}

/// `export {}`: every item with all its fields, in creation order; what `import` takes back.
public struct ExportViewModel: ViewModel {
    public static let wireName = "export"

    /// Every item.
    public var items: [TodoItem]

    public init(state: TodoState, params: NoParams) {
        items = Array(state.items)
    }
}

/// `undo {}`: the change the next `undo` would revert, as a client sees it, so that it can
/// name that change in its `undo` (`UndoLast(reverting:)`) and never revert one it did not see.
public struct UndoViewModel: ViewModel {
    public static let wireName = "undo"

    /// The newest change not yet undone; `nil` when there is nothing to undo.
    public var next: UndoTarget?

    public init(state: TodoState, params: NoParams) {
        next = state.undoStack.last.map { UndoTarget(change: $0.change, summary: $0.summary) }
    }
}

/// A change `undo` can revert: its id (`nil` for one recorded before changes had ids) and
/// what it did, for people.
public struct UndoTarget: Codable, Equatable, Sendable {
    /// The id of the action that made the change.
    public var change: Int?
    /// What it did: `add "buy milk"`.
    public var summary: String

    /// A target with both fields given.
    public init(change: Int?, summary: String) {
        self.change = change
        self.summary = summary
    }
}
