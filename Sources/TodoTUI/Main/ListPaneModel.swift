import TodoDomain

/// What the list pane shows: the rows the filter lets through and which one is selected.
public struct ListPaneModel: Equatable, Sendable {
    /// The rows, in creation order.
    public var rows: [ListViewModel.Row]
    /// The number of the selected item, if any.
    public var selected: Int?
    /// The filter in use (shown in the title).
    public var filter: ListFilter
    /// Whether the first list has not arrived yet.
    public var isLoading: Bool

    /// A model with every field given.
    public init(rows: [ListViewModel.Row], selected: Int?, filter: ListFilter, isLoading: Bool = false) {
        self.rows = rows
        self.selected = selected
        self.filter = filter
        self.isLoading = isLoading
    }

    /// The position of the selected row.
    var selectedIndex: Int? {
        selected.flatMap { number in rows.firstIndex { $0.number == number } }
    }
}
