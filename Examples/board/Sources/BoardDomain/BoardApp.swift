import SyncStore

/// The board application as the daemon runtime serves it.
public enum BoardApp: SyncApp {
    public static let initialState = BoardState()

    public static let actions: [any Action<BoardState>.Type] = [
        AddCard.self, MoveCard.self, EditCard.self, ArchiveCard.self, AddColumn.self, SetColumnLimit.self,
        ArchiveDoneCards.self,
        UndoBoardChange.self,
    ]

    public static let sideEffects: [any DispatchedSideEffect<BoardState, StandardDependencies>.Type] = [
        SweepDoneCards.self
    ]

    public static let viewModels: [any ViewModel<BoardState>.Type] = [
        BoardViewModel.self, ColumnViewModel.self, CardViewModel.self, BoardUndoViewModel.self,
    ]
}
