import SyncClient
import SyncTerminalUI
import TerminalUI
import TodoDomain

/// The root screen of `todo tui`: subscribes to the list with the current filter and to the
/// connection state, hosts the list and detail screens, keeps the status line, and declares
/// the routes (add, edit, delete, help, history).
public final class MainScreen: Screen<MainView, TodoStore>, RoutableWithConfiguration {
    /// The list pane.
    public let listScreen: ListScreen
    /// The detail pane.
    public let detailScreen: DetailScreen
    /// The filter of the list subscription.
    public private(set) var filter: ListFilter = .all
    private var status = StatusLineModel(connection: .connecting)
    /// The change `u` undoes: the newest one this screen has been shown.
    private var undoTarget: UndoTarget?
    /// Where the history mode reads the past.
    private let history: TodoHistory

    /// The main screen over `store`, reading the past for the history mode from `history`.
    public init(store: TodoStore, history: TodoHistory = .inert) {
        self.history = history
        listScreen = ListScreen(store: store)
        detailScreen = DetailScreen(store: store)
        super.init(view: MainView(), store: store)
        routeIdentifier = "main"
        add(listScreen, in: rootView.listRegion)
        add(detailScreen, in: rootView.detailRegion)
        focusedChild = listScreen
        rootView.model = MainViewModel(status: status)
    }

    /// The modal routes: add, edit, delete, help, history; each dismissed the same way.
    public var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
        [
            .show(TodoRoute.addItem): .presentModally { [store] _ in ItemFormScreen(mode: .add, store: store) },
            .hide(TodoRoute.addItem): .dismissModally,
            .show(TodoRoute.editItem): .presentModally { [store] context in
                (context as? ListViewModel.Row).map {
                    ItemFormScreen(mode: .edit(number: $0.number, text: $0.text), store: store)
                }
            },
            .hide(TodoRoute.editItem): .dismissModally,
            .show(TodoRoute.deleteItem): .presentModally { [store] context in
                (context as? ListViewModel.Row).map { ConfirmDeleteScreen(row: $0, store: store) }
            },
            .hide(TodoRoute.deleteItem): .dismissModally,
            .show(TodoRoute.help): .presentModally { _ in
                KeyHelpScreen(keys: TodoKeys.help, store: TodoStore.inert)
            },
            .hide(TodoRoute.help): .dismissModally,
            .show(TodoRoute.history): .presentModally { [unowned self] _ in
                HistoryScreen(newest: status.version ?? 0, filter: filter, history: history)
            },
            .hide(TodoRoute.history): .dismissModally,
        ]
    }

    /// The list with the current filter, the change an undo would revert, and the connection
    /// state.
    public override func subscriptions() -> [Subscription] {
        [
            Subscription(store.list(filter)) { [unowned self] update in receive(list: update) },
            Subscription(store.undo) { [unowned self] update in undoTarget = update.model?.next },
            Subscription(store.connection) { [unowned self] connection in receive(connection: connection) },
        ]
    }

    /// Wires the view's interaction callbacks to actions and navigation.
    public override func setupInteraction() {
        listScreen.didChangeSelection = { [unowned self] number in detailScreen.number = number }
        listScreen.willAct = { [unowned self] in show(message: nil) }
        rootView.didRequestAdd = { [unowned self] in navigate(to: TodoRoute.addItem) }
        rootView.didCycleFilter = { [unowned self] in cycleFilter() }
        rootView.didRequestUndo = { [unowned self] in
            // The undo names the change this screen last saw as the newest, so it never reverts
            // one that landed meanwhile (from another shell or host): that one is refused.
            guard let target = undoTarget else { return show(message: String(describing: TodoRejection.nothingToUndo)) }
            show(message: nil)
            dispatch(UndoLast(reverting: target)) { [unowned self] result in
                if case .failure(let error) = result {
                    didFail(error)
                } else {
                    show(message: "undid: \(target.summary)")
                }
            }
        }
        rootView.didRequestHelp = { [unowned self] in navigate(to: TodoRoute.help) }
        rootView.didRequestHistory = { [unowned self] in navigate(to: TodoRoute.history) }
        rootView.didRequestQuit = { [unowned self] in requestQuit() }
    }

    /// Anything that failed below: shown in the status line until the next action.
    public override func didFail(_ error: any Error) {
        show(message: Self.describe(error))
    }

    /// A new list from the daemon (or a test): the list pane shows it, the status line
    /// counts it.
    func receive(list update: ViewModelUpdate<ListViewModel>) {
        status.version = max(status.version ?? 0, update.version)
        status.openCount = update.model?.openCount ?? 0
        status.doneCount = update.model?.doneCount ?? 0
        listScreen.show(rows: update.model.map { Array($0.items) } ?? [], filter: filter)
        refresh()
    }

    /// A new connection state (or one from a test).
    func receive(connection: DisplayedConnectionState) {
        status.connection = connection
        if case .connected(let version) = connection { status.version = max(status.version ?? 0, version) }
        refresh()
    }

    /// Shows `message` in the status line (nil: the counts again).
    func show(message: String?) {
        status.message = message
        refresh()
    }

    private func cycleFilter() {
        show(message: nil)
        let all = ListFilter.allCases
        filter = all[(all.firstIndex(of: filter)! + 1) % all.count]
        listScreen.show(filter: filter)
        resubscribe()
    }

    private func navigate(to route: String, context: (any Sendable)? = nil) {
        show(message: nil)
        do {
            try show(route, context: context)
        } catch {
            didFail(error)
        }
    }

    private func refresh() {
        rootView.model = MainViewModel(status: status)
    }

    /// The sentence for a failure: the daemon's own words for refusals.
    static func describe(_ error: any Error) -> String {
        if let error = error as? SyncClientError, case .server(_, let message) = error { return message }
        return String(describing: error)
    }
}
