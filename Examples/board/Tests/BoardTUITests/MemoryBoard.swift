import BoardDomain
import BoardTUI
import Foundation
import SyncClient
import SyncStore
import TerminalUI

/// A board held in memory, served to screens as the daemon would serve it: every dispatch is
/// accepted (with fixed ids and times) and applied to a real `Store`, refusals are thrown as
/// the daemon's `rejected` errors, and each new version goes to the open feeds.
@MainActor
final class MemoryBoard {
    private(set) var store: Store<BoardState>
    private var boardFeeds: [AsyncThrowingStream<ViewModelUpdate<BoardViewModel>, any Error>.Continuation] = []
    private var undoFeeds: [AsyncThrowingStream<ViewModelUpdate<BoardUndoViewModel>, any Error>.Continuation] = []
    private var accepted = 0

    init(state: BoardState = BoardApp.initialState) {
        store = Store(state: state)
    }

    var state: BoardState { store.state }

    /// Accepts and applies `action` as the daemon does; a refusal is the daemon's error.
    func apply(_ action: any Action<BoardState>) throws {
        accepted += 1
        var action = action
        let id = UUID(uuidString: "00000000-0000-0000-0000-\(String(format: "%012d", accepted))")!
        action.accept(
            AcceptanceContext(identifier: id, millisecondsSinceEpoch: Int64(accepted) * 1000), state: store.state)
        do {
            try store.apply(action)
        } catch {
            throw SyncClientError.server(code: "rejected", message: String(describing: error))
        }
        publish()
    }

    /// The screens' store over this board.
    nonisolated func screenStore() -> BoardStore {
        BoardStore(
            dispatch: { action in try await self.apply(action) },
            board: Feed("board") {
                AsyncThrowingStream { continuation in Task { @MainActor in self.open(board: continuation) } }
            },
            undo: Feed("undo") {
                AsyncThrowingStream { continuation in Task { @MainActor in self.open(undo: continuation) } }
            })
    }

    private func open(board continuation: AsyncThrowingStream<ViewModelUpdate<BoardViewModel>, any Error>.Continuation)
    {
        boardFeeds.append(continuation)
        continuation.yield(
            ViewModelUpdate(version: store.version, model: BoardViewModel(state: store.state, params: NoParams())))
    }

    private func open(
        undo continuation: AsyncThrowingStream<ViewModelUpdate<BoardUndoViewModel>, any Error>.Continuation
    ) {
        undoFeeds.append(continuation)
        continuation.yield(
            ViewModelUpdate(version: store.version, model: BoardUndoViewModel(state: store.state, params: NoParams())))
    }

    private func publish() {
        let board = BoardViewModel(state: store.state, params: NoParams())
        let undo = BoardUndoViewModel(state: store.state, params: NoParams())
        for feed in boardFeeds { feed.yield(ViewModelUpdate(version: store.version, model: board)) }
        for feed in undoFeeds { feed.yield(ViewModelUpdate(version: store.version, model: undo)) }
    }
}
