import SyncClient
import TerminalUI
import TodoDomain

/// The detail pane: subscribes to `item {number}` for the selected item, and again whenever
/// the selection changes.
public final class DetailScreen: Screen<DetailPaneView, TodoStore> {
    /// The item shown; setting it subscribes to that item instead.
    public var number: Int? {
        didSet {
            guard number != oldValue else { return }
            rootView.model = number.map { .loading(number: $0) } ?? .nothingSelected
            resubscribe()
        }
    }

    /// A detail pane over `store`.
    public init(store: TodoStore) {
        super.init(view: DetailPaneView(), store: store)
        rootView.model = .nothingSelected
    }

    /// The selected item's model, while an item is selected.
    public override func subscriptions() -> [Subscription] {
        guard let number else { return [] }
        return [Subscription(store.item(number)) { [unowned self] update in receive(item: update, number: number) }]
    }

    /// The item's model from the daemon (or a test).
    func receive(item update: ViewModelUpdate<ItemViewModel>, number: Int) {
        guard number == self.number else { return }
        rootView.model = update.model.map { .item($0.item) } ?? .missing(number: number)
    }
}
