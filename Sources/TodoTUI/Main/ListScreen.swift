import SyncClient
import TerminalUI
import TodoDomain

/// The list pane: which row is selected, and what keys on a row do. Its rows come from the
/// main screen's subscription.
///
/// The selection follows the item, not the position: when the list changes under it (from
/// this shell or any other), the same item stays selected; if it is gone, the row now at its
/// position (or the last) is.
public final class ListScreen: Screen<ListPaneView, TodoStore> {
    /// Told the selected item's number whenever it changes.
    public var didChangeSelection: ((Int?) -> Void)?
    /// Told before the list acts on a row (toggle, edit, delete), so that the status line
    /// drops its last message.
    public var willAct: (() -> Void)?
    private var rows: [ListViewModel.Row] = []
    private var filter: ListFilter = .all
    private var isLoading = true
    /// The selected item's number.
    public private(set) var selected: Int?

    /// A list pane over `store`.
    public init(store: TodoStore) {
        super.init(view: ListPaneView(), store: store)
        refresh()
    }

    /// Wires the view's interaction callbacks to actions and navigation.
    public override func setupInteraction() {
        rootView.didSelect = { [unowned self] number in select(number) }
        rootView.didToggleItem = { [unowned self] row in
            willAct?()
            if row.completed {
                dispatch(ReopenItem(number: row.number))
            } else {
                dispatch(CompleteItem(number: row.number))
            }
        }
        rootView.didRequestEdit = { [unowned self] row in navigate(to: TodoRoute.editItem, with: row) }
        rootView.didRequestDelete = { [unowned self] row in navigate(to: TodoRoute.deleteItem, with: row) }
    }

    /// New rows: the selection stays on its item if it is still there.
    func show(rows newRows: [ListViewModel.Row], filter: ListFilter) {
        let oldIndex = selected.flatMap { number in rows.firstIndex { $0.number == number } }
        rows = newRows
        self.filter = filter
        isLoading = false
        if let selected, rows.contains(where: { $0.number == selected }) {
            refresh()
            return
        }
        let index = min(oldIndex ?? 0, rows.count - 1)
        select(index >= 0 ? rows[index].number : nil)
    }

    /// A new filter, before its rows arrive.
    func show(filter: ListFilter) {
        self.filter = filter
        isLoading = true
        refresh()
    }

    private func select(_ number: Int?) {
        let changed = number != selected
        selected = number
        refresh()
        if changed { didChangeSelection?(number) }
    }

    private func navigate(to route: String, with row: ListViewModel.Row) {
        willAct?()
        do {
            try show(route, context: row)
        } catch {
            didFail(error)
        }
    }

    private func refresh() {
        rootView.model = ListPaneModel(rows: rows, selected: selected, filter: filter, isLoading: isLoading)
    }
}
