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
public struct ListViewModel: ViewModel {
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

    /// The rows the filter shows.
    public var items: [Row]
    /// Open items in the whole list, whatever the filter.
    public var openCount: Int
    /// Done items in the whole list, whatever the filter.
    public var doneCount: Int

    public init(state: TodoState, params: Params) {
        // One pass, no intermediate array: this runs for every version with a subscriber.
        var rows: [Row] = []
        rows.reserveCapacity(params.filter == .all ? state.items.count : 0)
        var done = 0
        for item in state.items {
            if item.completed { done += 1 }
            if params.filter.includes(item) { rows.append(Row(number: item.number, text: item.text, completed: item.completed)) }
        }
        items = rows
        doneCount = done
        openCount = state.items.count - done
    }
}

extension ListViewModel: DiffableViewModel {
    /// Row changes where rows changed, and the counts when they did: a toggle in a long list
    /// is a replaced row and two counts.
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
        guard let item = state.items.first(where: { $0.number == params.number }) else { return nil }
        self.item = item
    }

    public init(from decoder: any Decoder) throws {
        item = try TodoItem(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try item.encode(to: encoder)
    }
}

/// `summary {}`: the counts of items.
public struct SummaryViewModel: ViewModel {
    public static let wireName = "summary"

    /// Every item.
    public var totalCount: Int
    /// Open items.
    public var openCount: Int
    /// Done items.
    public var doneCount: Int

    public init(state: TodoState, params: NoParams) {
        totalCount = state.items.count
        doneCount = state.items.count { $0.completed }
        openCount = totalCount - doneCount
    }
}

/// `export {}`: every item with all its fields, in creation order; what `import` takes back.
public struct ExportViewModel: ViewModel {
    public static let wireName = "export"

    /// Every item.
    public var items: [TodoItem]

    public init(state: TodoState, params: NoParams) {
        items = state.items
    }
}
