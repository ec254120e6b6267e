import TerminalUI
import TodoDomain

/// The modal question before `remove`: `y` sends it and closes, `n` or Esc only closes. A
/// refusal (the item was removed meanwhile) goes to the status line.
public final class ConfirmDeleteScreen: Screen<ConfirmDeleteView, TodoStore> {
    /// A question about `row` over `store`.
    public init(row: ListViewModel.Row, store: TodoStore) {
        super.init(view: ConfirmDeleteView(), store: store)
        rootView.model = row
    }

    /// Wires the view's interaction callbacks to actions and navigation.
    public override func setupInteraction() {
        rootView.didConfirm = { [unowned self] in
            if let row = rootView.model {
                // This screen is gone by the time a refusal comes back: tell the one below.
                dispatch(RemoveItem(number: row.number)) { [presenter] result in
                    if case .failure(let error) = result { presenter?.didFail(error) }
                }
            }
            close()
        }
        rootView.didCancel = { [unowned self] in close() }
    }

    private func close() {
        do {
            try hide(routeIdentifier)
        } catch {
            didFail(error)
        }
    }
}
