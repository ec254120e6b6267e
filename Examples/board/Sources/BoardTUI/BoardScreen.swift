import BoardDomain
import SyncClient
import SyncTerminalUI
import TerminalUI

/// The board screen, the root of `board tui`: subscribes to the board and to the change an
/// undo would revert, keeps the selection, turns the view's interactions into actions, and
/// declares the routes (add a card, help).
///
/// The selection follows the card, not the place: when the board changes under it (a move
/// from this screen or any other shell), the same card stays selected wherever it went; if it
/// is gone, the card now at its place in the column (or the last one) is.
public final class BoardScreen: Screen<BoardView, BoardStore>, RoutableWithConfiguration {
    private var board: BoardViewModel?
    private var column = 0
    private var card: Int?
    private var selectedID: String?
    private var version: UInt64?
    private var message: String?
    private var connectionNote: String?
    /// The change `u` undoes: the newest one this screen has been shown.
    private(set) var undoTarget: BoardUndoTarget?

    /// The board screen over `store`.
    public init(store: BoardStore) {
        super.init(view: BoardView(), store: store)
        routeIdentifier = "board"
        refresh()
    }

    /// The modal routes: the add form (for the selected column) and help.
    public var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
        [
            .show(BoardRoute.addCard): .presentModally { [store] context in
                (context as? String).map { CardFormScreen(column: $0, store: store) }
            },
            .hide(BoardRoute.addCard): .dismissModally,
            .show(BoardRoute.help): .presentModally { _ in
                KeyHelpScreen(keys: BoardKeys.help, store: BoardStore.inert)
            },
            .hide(BoardRoute.help): .dismissModally,
        ]
    }

    /// The board and the change an undo would revert.
    public override func subscriptions() -> [Subscription] {
        [
            Subscription(store.board) { [unowned self] update in receive(board: update) },
            Subscription(store.undo) { [unowned self] update in undoTarget = update.model?.next },
            Subscription(store.connection) { [unowned self] status in receive(connection: status) },
        ]
    }

    /// Wires the view's interaction callbacks to actions and navigation.
    public override func setupInteraction() {
        rootView.didSelect = { [unowned self] columns, cards in select(columns: columns, cards: cards) }
        rootView.didMoveCard = { [unowned self] delta in moveCard(columns: delta) }
        rootView.didShiftCard = { [unowned self] delta in shiftCard(by: delta) }
        rootView.didRequestAdd = { [unowned self] in
            guard let name = board?.columns[column].name else { return }
            navigate(to: BoardRoute.addCard, context: name)
        }
        rootView.didRequestArchive = { [unowned self] in
            guard let selected = rootView.model?.selectedCard else { return }
            act(ArchiveCard(card: selected.id), done: "archived \"\(selected.title)\"")
        }
        rootView.didRequestUndo = { [unowned self] in
            // The undo names the change this screen last saw as the newest, so it never
            // reverts one that landed meanwhile: that one is refused.
            guard let target = undoTarget else {
                return show(message: String(describing: BoardRejection.nothingToUndo))
            }
            act(UndoBoardChange(reverting: target), done: "undid: \(target.summary)")
        }
        rootView.didRequestHelp = { [unowned self] in navigate(to: BoardRoute.help) }
        rootView.didRequestQuit = { [unowned self] in requestQuit() }
    }

    /// Anything that failed here or above: shown in the status line until the next action.
    public override func didFail(_ error: any Error) {
        show(message: Self.describe(error))
    }

    /// A new board from the daemon (or a test): the selection stays on its card.
    func receive(board update: ViewModelUpdate<BoardViewModel>) {
        version = max(version ?? 0, update.version)
        guard let newBoard = update.model, !newBoard.columns.isEmpty else { return }
        board = newBoard
        if let selectedID, let place = Self.place(of: selectedID, in: newBoard) {
            (column, card) = place
        } else {
            column = min(column, newBoard.columns.count - 1)
            settleCard(at: card ?? 0)
        }
        refresh()
    }

    /// The connection's state: a note in the status line while it is lost.
    func receive(connection status: DisplayedConnectionState) {
        switch status {
        case .connecting, .connected: connectionNote = nil
        case .reconnecting(let attempt, let reason): connectionNote = "reconnecting (attempt \(attempt)): \(reason)"
        case .disconnected(let reason): connectionNote = "disconnected: \(reason)"
        }
        refresh()
    }

    /// Shows `message` in the status line (nil: the counts again).
    func show(message: String?) {
        self.message = message
        refresh()
    }

    private func select(columns: Int, cards: Int) {
        guard let board else { return }
        message = nil
        if columns != 0 {
            column = min(max(0, column + columns), board.columns.count - 1)
            settleCard(at: card ?? 0)
        } else if let current = card {
            settleCard(at: max(0, current + cards))
        }
        refresh()
    }

    /// Selects the card at `position` of the current column, or its last card.
    private func settleCard(at position: Int) {
        let cards = board?.columns[column].cards ?? []
        card = cards.isEmpty ? nil : min(position, cards.count - 1)
        selectedID = card.map { cards[$0].id }
    }

    private func moveCard(columns delta: Int) {
        guard let board, let selected = rootView.model?.selectedCard, board.columns.indices.contains(column + delta)
        else { return }
        act(MoveCard(card: selected.id, column: board.columns[column + delta].name), done: nil)
    }

    private func shiftCard(by delta: Int) {
        guard let board, let selected = rootView.model?.selectedCard, let card,
            board.columns[column].cards.indices.contains(card + delta)
        else { return }
        act(MoveCard(card: selected.id, position: card + delta), done: nil)
    }

    /// Sends `action`; on success shows `done` (if any), on failure the refusal.
    private func act(_ action: BoardStore.Action, done: String?) {
        show(message: nil)
        dispatch(action) { [unowned self] result in
            if case .failure(let error) = result { didFail(error) } else if let done { show(message: done) }
        }
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
        rootView.model = BoardScreenModel(
            board: board, column: column, card: card, version: version, message: message, connectionNote: connectionNote
        )
    }

    /// The column and position of card `id` on `board`.
    static func place(of id: String, in board: BoardViewModel) -> (Int, Int?)? {
        for (column, entry) in board.columns.enumerated() {
            if let position = entry.cards.firstIndex(where: { $0.id == id }) { return (column, position) }
        }
        return nil
    }

    /// The sentence for a failure: the daemon's own words for refusals.
    static func describe(_ error: any Error) -> String {
        if let error = error as? SyncClientError, case .server(_, let message) = error { return message }
        return String(describing: error)
    }
}
