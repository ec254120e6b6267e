import SyncStore

/// The todo application as the daemon runtime serves it.
public enum TodoApp: SyncApp {
    public static let initialState = TodoState()

    public static let actions: [any Action<TodoState>.Type] = [
        AddItem.self, CompleteItem.self, ReopenItem.self, EditItem.self, RemoveItem.self, ClearCompleted.self,
        UndoLast.self, ImportItems.self,
    ]

    public static let sideEffects: [any DispatchedSideEffect<TodoState, StandardDependencies>.Type] = [
        ExpireDone.self, AwaitDone.self,
    ]

    public static let viewModels: [any ViewModel<TodoState>.Type] = [
        ListViewModel.self, ItemViewModel.self, SummaryViewModel.self, ExportViewModel.self, UndoViewModel.self,
    ]
}
